// The cold-start baseline: a plain static server, its own Node process like the console's host,
// serving the same renderer build and answering each bridge call with the answer the real host
// gave (recorded in the same bench run). The page does the same rendering work; what it lacks
// is the console's own start: its services, the stand-in, the reads behind each answer.
// Usage: node bench/startup-baseline.mjs <renderer dir> <answers.json>
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

const [rendererDir, answersFile] = process.argv.slice(2);
/** @type {Record<string, string[]>} "channel\ninput" -> the answers in the order they were given */
const answers = JSON.parse(readFileSync(answersFile, 'utf8'));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' };

function answer(channel, input) {
  const list = answers[`${channel}\n${input}`] ?? answers[Object.keys(answers).find((k) => k.startsWith(`${channel}\n`)) ?? ''];
  if (!list?.length) return '{"error":{"kind":"Unavailable","message":"not recorded"}}';
  return list.length > 1 ? list.shift() : list[0];
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'POST' && url.pathname.startsWith('/bridge/')) {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(answer(decodeURIComponent(url.pathname.slice('/bridge/'.length)), Buffer.concat(chunks).toString('utf8')));
    });
    return;
  }
  if (url.pathname === '/bridge-events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(': connected\n\n');
    return;
  }
  const path = normalize(url.pathname === '/' ? '/index.html' : url.pathname);
  readFile(join(rendererDir, path)).then(
    (body) => {
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    },
    () => {
      res.writeHead(404);
      res.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/\n`));
