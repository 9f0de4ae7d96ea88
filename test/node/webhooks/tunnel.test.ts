import { test, expect } from '@playwright/test';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  buildTunnelCommand,
  detectTunnels,
  fillUrlTemplate,
  findPublicUrl,
  installHint,
  parseCommandLine,
  startTunnel,
  type TunnelRunner,
  type TunnelState,
} from '../../../src-main/webhooks/tunnel';
import { checkThroughTunnel } from '../../../src-main/webhooks/tunnel-check';
import { alive } from '../../support/processes';

/**
 * A stand-in for cloudflared and ngrok: prints what the real programs print (by the name it is
 * called under), records its arguments and pid, and behaves as FAKE_TUNNEL_MODE says.
 */
const FAKE = `#!${process.execPath}
const { writeFileSync } = require('node:fs');
const { basename } = require('node:path');
const name = basename(process.argv[1]);
const mode = process.env.FAKE_TUNNEL_MODE || 'ok';
writeFileSync(process.env.FAKE_TUNNEL_RECORD, JSON.stringify({ pid: process.pid, args: process.argv.slice(2) }));
const err = (l) => process.stderr.write(l + '\\n');
const out = (l) => process.stdout.write(l + '\\n');
process.on('SIGTERM', () => process.exit(0));
setInterval(() => {}, 1000);
if (mode === 'fail') {
  err('2025-01-15T12:00:00Z ERR Failed to request quick Tunnel error="dial tcp: lookup api.trycloudflare.com: no such host"');
  process.exit(1);
}
if (mode === 'silent') return;
if (name.startsWith('ngrok')) {
  out('t=2025-01-15T12:00:00+0000 lvl=info msg="starting web service" obj=web addr=127.0.0.1:4040');
  out('t=2025-01-15T12:00:00+0000 lvl=info msg="started tunnel" obj=tunnels name=command_line addr=http://127.0.0.1:8787 url=https://ab12-203-0-113-5.ngrok-free.app');
} else {
  err('2025-01-15T12:00:00Z INF Thank you for trying Cloudflare Tunnel. Doing so, without a Cloudflare account, is a quick way to experiment.');
  err('2025-01-15T12:00:00Z INF Cloudflare Tunnel terms apply: https://www.cloudflare.com/website-terms/');
  err('2025-01-15T12:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...');
  // Split across writes, as a pipe may deliver it.
  process.stderr.write('2025-01-15T12:00:01Z INF |  https://quiet-river-mo');
  setTimeout(() => {
    err('ss-lantern.trycloudflare.com                                  |');
    if (mode === 'die') setTimeout(() => { err('2025-01-15T12:00:05Z ERR Connection terminated'); process.exit(3); }, 50);
  }, 20);
}
`;

let dir = '';
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'webhooks-tunnel-'));
  for (const name of ['cloudflared', 'ngrok']) {
    await writeFile(join(dir, name), FAKE);
    await chmod(join(dir, name), 0o755);
  }
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as { pid: number; args: string[] };
function watch(t: TunnelRunner): TunnelState[] {
  const seen: TunnelState[] = [t.state];
  t.onState((s) => seen.push(s));
  return seen;
}

test('builds each provider command with its host-header option, forwarding to 127.0.0.1', () => {
  expect(buildTunnelCommand('cloudflared', 8787)).toEqual({
    provider: 'cloudflared',
    command: 'cloudflared',
    args: ['tunnel', '--no-autoupdate', '--url', 'http://127.0.0.1:8787', '--http-host-header', '127.0.0.1:8787'],
  });
  const ngrok = buildTunnelCommand('ngrok', 8787, '/opt/ngrok');
  expect(ngrok.command).toBe('/opt/ngrok');
  expect(ngrok.args.slice(0, 3)).toEqual(['http', '127.0.0.1:8787', '--host-header=rewrite']);
  // ssh cannot rewrite Host; it forwards the far end's port 80 to the listener, no shell.
  const ssh = buildTunnelCommand('ssh', 8787, '/usr/bin/ssh');
  expect(ssh.command).toBe('/usr/bin/ssh');
  expect(ssh.args.slice(-3)).toEqual(['-R', '80:127.0.0.1:8787', 'nokey@localhost.run']);
  expect(ssh.args).toContain('ExitOnForwardFailure=yes');
});

test("each built-in program has an install hint for each OS, Linux's for other Unixes", () => {
  expect(installHint('cloudflared', 'darwin')).toBe('brew install cloudflared');
  expect(installHint('cloudflared', 'win32')).toBe('winget install --id Cloudflare.cloudflared');
  expect(installHint('ssh', 'linux')).toBe('sudo apt install openssh-client');
  expect(installHint('ssh', 'freebsd')).toBe(installHint('ssh', 'linux'));
  expect(installHint('ngrok', 'win32')).toMatch(/^choco install ngrok/);
});

test('a URL template takes the port OpenSSH allocated, or is fixed', () => {
  expect(fillUrlTemplate('http://127.0.0.1:{remotePort}/', 'Allocated port 43247 for remote forward to 127.0.0.1:8787')).toBe(
    'http://127.0.0.1:43247',
  );
  expect(fillUrlTemplate('http://127.0.0.1:{remotePort}', 'Warning: Permanently added [127.0.0.1]:2222')).toBeUndefined();
  expect(fillUrlTemplate('http://127.0.0.1:{remotePort}')).toBeUndefined();
  expect(fillUrlTemplate('https://hooks.example.org')).toBe('https://hooks.example.org');
});

test('splits a custom command line without a shell', () => {
  expect(parseCommandLine(`my-tunnel --to "http://127.0.0.1:{port}" --name 'a b' x\\ y`, 9000)).toEqual({
    provider: 'custom',
    command: 'my-tunnel',
    args: ['--to', 'http://127.0.0.1:9000', '--name', 'a b', 'x y'],
  });
  // Shell syntax is just text: nothing is run through a shell.
  expect(parseCommandLine('tool; rm -rf / && echo $HOME', 1).args).toEqual(['rm', '-rf', '/', '&&', 'echo', '$HOME']);
  expect(() => parseCommandLine('tool "unclosed', 1)).toThrow('unclosed quote');
  expect(() => parseCommandLine('   ', 1)).toThrow('empty');
});

test('finds the public URL in each program’s output and nothing else', () => {
  expect(findPublicUrl('INF |  https://quiet-river-moss.trycloudflare.com   |', 'cloudflared')).toBe(
    'https://quiet-river-moss.trycloudflare.com',
  );
  expect(findPublicUrl('INF Cloudflare Tunnel terms apply: https://www.cloudflare.com/website-terms/', 'cloudflared')).toBeUndefined();
  expect(findPublicUrl('lvl=info msg="started tunnel" url=https://ab12.ngrok-free.app', 'ngrok')).toBe('https://ab12.ngrok-free.app');
  expect(findPublicUrl('{"lvl":"info","msg":"started tunnel","url":"https://cd34.ngrok-free.app"}', 'ngrok')).toBe(
    'https://cd34.ngrok-free.app',
  );
  expect(findPublicUrl('lvl=info msg="starting web service" addr=127.0.0.1:4040', 'ngrok')).toBeUndefined();
  expect(findPublicUrl('ready at https://hooks.example.org/ now', 'custom')).toBe('https://hooks.example.org');
  expect(findPublicUrl('Connect to https://1a2b3c4d5e6f.lhr.life or http://1a2b3c4d5e6f.lhr.life', 'ssh')).toBe(
    'https://1a2b3c4d5e6f.lhr.life',
  );
  expect(findPublicUrl('To explore the docs see https://localhost.run/docs/', 'ssh')).toBeUndefined();
});

test('detects cloudflared and ngrok on PATH', async () => {
  expect(await detectTunnels({ PATH: dir })).toEqual([
    { provider: 'cloudflared', path: join(dir, 'cloudflared') },
    { provider: 'ngrok', path: join(dir, 'ngrok') },
  ]);
  expect(await detectTunnels({ PATH: join(dir, 'nothing-here') })).toEqual([]);
  await writeFile(join(dir, 'ssh'), '#!/bin/sh\n');
  await chmod(join(dir, 'ssh'), 0o755);
  expect((await detectTunnels({ PATH: dir })).map((t) => t.provider)).toEqual(['cloudflared', 'ngrok', 'ssh']);
  await rm(join(dir, 'ssh'));
});

test('a program on PATH twice is found where PATH names it first; a file there that is not executable is passed over', async () => {
  const first = join(dir, 'path-first');
  const second = join(dir, 'path-second');
  const third = join(dir, 'path-third');
  for (const d of [first, second, third]) await mkdir(d, { recursive: true });
  await writeFile(join(first, 'ngrok'), 'not a program\n');
  for (const d of [second, third]) {
    await writeFile(join(d, 'ngrok'), '#!/bin/sh\n');
    await chmod(join(d, 'ngrok'), 0o755);
  }
  const found = await detectTunnels({ PATH: [first, third, second].join(delimiter) });
  expect(found.find((t) => t.provider === 'ngrok')?.path).toBe(join(third, 'ngrok'));
  expect((await detectTunnels({ PATH: [first, second, third].join(delimiter) })).find((t) => t.provider === 'ngrok')?.path).toBe(
    join(second, 'ngrok'),
  );
});

test('a custom command with a URL template is running once the program runs, or once it names its allocated port', async () => {
  const fixed = startTunnel({
    command: parseCommandLine(`"${process.execPath}" -e "setInterval(() => {}, 1000)"`, 1),
    urlTemplate: 'http://127.0.0.1:8080',
  });
  try {
    await expect.poll(() => fixed.state).toEqual({ status: 'running', url: 'http://127.0.0.1:8080' });
  } finally {
    await fixed.stop();
  }
  const script = `console.error('Warning: Permanently added [127.0.0.1]:2222'); setTimeout(() => console.error('Allocated port 40001 for remote forward to 127.0.0.1:8787'), 100); setInterval(() => {}, 1000);`;
  const allocated = startTunnel({
    command: { provider: 'custom', command: process.execPath, args: ['-e', script] },
    urlTemplate: 'http://127.0.0.1:{remotePort}',
  });
  const states = watch(allocated);
  try {
    await expect.poll(() => allocated.state).toEqual({ status: 'running', url: 'http://127.0.0.1:40001' });
    expect(states.map((s) => s.status)).toEqual(['starting', 'running']);
  } finally {
    await allocated.stop();
  }
});

test('runs a detected cloudflared, reports its URL, and stops it', async () => {
  const [found] = await detectTunnels({ PATH: dir });
  const file = join(dir, 'run-ok.json');
  const t = startTunnel({
    command: buildTunnelCommand(found!.provider, 8787, found!.path),
    env: { ...process.env, FAKE_TUNNEL_RECORD: file, FAKE_TUNNEL_MODE: 'ok' },
  });
  const states = watch(t);
  try {
    await expect.poll(() => t.state).toEqual({ status: 'running', url: 'https://quiet-river-moss-lantern.trycloudflare.com' });
    const { pid, args } = await record(file);
    expect(args).toEqual(['tunnel', '--no-autoupdate', '--url', 'http://127.0.0.1:8787', '--http-host-header', '127.0.0.1:8787']);
    expect(alive(pid)).toBe(true);
    await t.stop();
    expect(t.state).toEqual({ status: 'stopped' });
    expect(alive(pid)).toBe(false);
    expect(states.map((s) => s.status)).toEqual(['starting', 'running', 'stopped']);
  } finally {
    await t.stop();
  }
});

test('runs ngrok and reads its URL from the log', async () => {
  const file = join(dir, 'run-ngrok.json');
  const t = startTunnel({
    command: buildTunnelCommand('ngrok', 8787, join(dir, 'ngrok')),
    env: { ...process.env, FAKE_TUNNEL_RECORD: file },
  });
  try {
    await expect.poll(() => t.state).toEqual({ status: 'running', url: 'https://ab12-203-0-113-5.ngrok-free.app' });
  } finally {
    await t.stop();
  }
});

test('a program that exits before giving a URL fails with its last words', async () => {
  const t = startTunnel({
    command: buildTunnelCommand('cloudflared', 8787, join(dir, 'cloudflared')),
    env: { ...process.env, FAKE_TUNNEL_RECORD: join(dir, 'run-fail.json'), FAKE_TUNNEL_MODE: 'fail' },
  });
  await expect.poll(() => t.state.status).toBe('failed');
  const s = t.state;
  expect(s.status === 'failed' && s.reason).toMatch(/exited \(code 1\) before giving a public URL: .*no such host/);
  // Starting again may help (the network may come back).
  expect(s.status === 'failed' && s.retry).toBe(true);
  await t.stop();
});

test('a program that prints no URL in time is failed and ended', async () => {
  const file = join(dir, 'run-silent.json');
  const t = startTunnel({
    command: buildTunnelCommand('cloudflared', 8787, join(dir, 'cloudflared')),
    env: { ...process.env, FAKE_TUNNEL_RECORD: file, FAKE_TUNNEL_MODE: 'silent' },
    startTimeoutMs: 2000,
  });
  await expect.poll(async () => (await readFile(file, 'utf8').catch(() => '')) !== '').toBe(true);
  expect(t.state.status).toBe('starting');
  await expect.poll(() => t.state.status).toBe('failed');
  expect(t.state.status === 'failed' && t.state.reason).toContain('No public URL from the tunnel within');
  const { pid } = await record(file);
  await expect.poll(() => alive(pid)).toBe(false);
  await t.stop();
});

test('a tunnel that dies while running is reported failed', async () => {
  const t = startTunnel({
    command: buildTunnelCommand('cloudflared', 8787, join(dir, 'cloudflared')),
    env: { ...process.env, FAKE_TUNNEL_RECORD: join(dir, 'run-die.json'), FAKE_TUNNEL_MODE: 'die' },
  });
  const states = watch(t);
  await expect.poll(() => t.state.status).toBe('failed');
  expect(states.map((s) => s.status)).toEqual(['starting', 'running', 'failed']);
  expect(t.state.status === 'failed' && t.state.reason).toBe(
    'The tunnel stopped unexpectedly (code 3): 2025-01-15T12:00:05Z ERR Connection terminated',
  );
  await t.stop();
});

test('a missing program fails with a plain message', async () => {
  const t = startTunnel({ command: buildTunnelCommand('cloudflared', 8787, join(dir, 'no-such-cloudflared')) });
  await expect.poll(() => t.state.status).toBe('failed');
  expect(t.state.status === 'failed' && t.state.reason).toBe(
    `${join(dir, 'no-such-cloudflared')} was not found; install it or set the tunnel command in Settings.`,
  );
  // Starting again cannot help.
  expect(t.state.status === 'failed' && t.state.retry).toBe(false);
  await t.stop();
});

test('a self-check answered by something else is said so, an endless answer too, read no further than the listener answer could be', async () => {
  let written = 0;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/stray') return void res.end('{"status":"ok"}');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const more = () => {
      while (!res.destroyed && written < 200 * 1024 * 1024) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const other = "Something other than this listener answered the self-check at the tunnel's address.";
    expect(await checkThroughTunnel(`${base}/stray`, 'secret-1234567')).toBe(other);
    expect(await checkThroughTunnel(`${base}/endless`, 'secret-1234567', 60_000)).toBe(other);
    expect(written).toBeLessThan(50 * 1024 * 1024);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
