// npm run lint:messages: the message catalogs (src-renderer/src/locales/*.json, ICU MessageFormat)
// agree with each other and with the code. Every catalog has the English one's keys, each message
// parses and takes the same arguments (name and kind) as the English one; every key the code asks
// for is in the catalogs, and every key of the catalogs is asked for somewhere.
//
// How code asks for a key: a feature's translator (`export const tt = i18n.register('attendance')`)
// called with a literal (`tt('q.accept')`) or a template's fixed start (`tt(\`ch.${c}\`)`, every
// key so beginning, also when the template is made before the call), or the key written as a literal in a file that imports that translator's
// module (a table of keys by reason); a full key (`'enums.OPEN'`, `\`enums.${code}\``) anywhere.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { TYPE, parse } from '@formatjs/icu-messageformat-parser';

const KINDS = {
  [TYPE.argument]: 'text',
  [TYPE.number]: 'number',
  [TYPE.date]: 'date',
  [TYPE.time]: 'time',
  [TYPE.plural]: 'plural',
  [TYPE.select]: 'select',
};

/** A message's arguments as `name:kind`, sorted (branches of plurals and selects included). */
export function argumentsOf(message) {
  const found = new Set();
  const walk = (elements) => {
    for (const e of elements) {
      if (KINDS[e.type]) found.add(`${e.value}:${KINDS[e.type]}`);
      if (e.options) for (const o of Object.values(e.options)) walk(o.value);
    }
  };
  walk(parse(message, { ignoreTag: true }));
  return [...found].sort();
}

function readCatalogs(dir) {
  const catalogs = {};
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    catalogs[f.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  }
  return catalogs;
}

function sourceFiles(dir, skip) {
  const out = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (p === skip) continue;
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p, skip));
    else if (/\.(ts|svelte)$/.test(f)) out.push(p);
  }
  return out;
}

/** The file an import names, as the build resolves it ('' for a package). */
function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return '';
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.svelte.ts`, join(base, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return '';
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Findings as lines of text ([] when the catalogs and the code agree). `root` holds
 * `src-renderer/src` (the code) and `src-renderer/src/locales` (the catalogs).
 */
export function checkMessages(root) {
  const src = join(root, 'src-renderer/src');
  const localeDir = join(src, 'locales');
  const findings = [];
  const catalogs = readCatalogs(localeDir);
  const en = catalogs.en;
  if (!en) return [`no English catalog in ${relative(root, localeDir)}`];

  // Every catalog: the same keys, messages that parse, the same arguments.
  const argsEn = {};
  for (const [key, message] of Object.entries(en)) {
    try {
      argsEn[key] = argumentsOf(message).join(', ');
    } catch (e) {
      findings.push(`en: ${key} does not parse (${e.message})`);
    }
  }
  for (const [lang, catalog] of Object.entries(catalogs)) {
    if (lang === 'en') continue;
    for (const key of Object.keys(en)) if (!(key in catalog)) findings.push(`${lang}: ${key} is missing (the English catalog has it)`);
    for (const [key, message] of Object.entries(catalog)) {
      if (!(key in en)) {
        findings.push(`${lang}: ${key} is not in the English catalog`);
        continue;
      }
      let args;
      try {
        args = argumentsOf(message).join(', ');
      } catch (e) {
        findings.push(`${lang}: ${key} does not parse (${e.message})`);
        continue;
      }
      if (key in argsEn && args !== argsEn[key]) findings.push(`${lang}: ${key} takes {${args}}, English takes {${argsEn[key]}}`);
    }
  }

  // The code: which translator is which namespace, and which file uses which.
  const files = sourceFiles(src, localeDir).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  const translators = new Map(); // file -> Map(exported name -> namespace)
  for (const { path, text } of files) {
    for (const m of text.matchAll(/\b(?:export\s+)?const\s+(\w+)\s*=\s*i18n\.register\('(\w+)'\)/g)) {
      if (!translators.has(path)) translators.set(path, new Map());
      translators.get(path).set(m[1], m[2]);
    }
  }
  const keysOf = (ns) => Object.keys(en).filter((k) => k.startsWith(`${ns}.`));
  const used = new Set();
  const useFrom = (ns, prefix) => {
    for (const k of keysOf(ns)) if (k.slice(ns.length + 1).startsWith(prefix)) used.add(k);
  };
  for (const { path, text } of files) {
    // Local name -> namespace: its own translators, those it imports, and the console's `t`.
    const bound = new Map(translators.get(path) ?? []);
    const namespaces = new Set(bound.values());
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
      const target = resolveImport(path, m[2]);
      if (target.endsWith(join('lib', 'i18n.svelte.ts')) && /\bt\b/.test(m[1].replace(/\btype\s+\w+/g, ''))) bound.set('t', 'core');
      const theirs = translators.get(target);
      if (!theirs) continue;
      for (const ns of theirs.values()) namespaces.add(ns);
      for (const name of m[1].split(',').map((s) => s.trim())) if (theirs.has(name)) bound.set(name, theirs.get(name));
    }
    if (/\bi18n\.t\(/.test(text)) bound.set('i18n.t', 'core');
    for (const [name, ns] of bound) {
      const call = new RegExp(`(?<![\\w.])${escape(name)}\\(\\s*(?:'([^']*)'|"([^"]*)"|\`([^\`$]*)(\\$\\{)?)`, 'g');
      for (const m of text.matchAll(call)) {
        const literal = m[1] ?? m[2] ?? (m[4] ? undefined : m[3]);
        if (literal !== undefined) {
          const key = `${ns}.${literal}`;
          if (key in en) used.add(key);
          else findings.push(`${relative(root, path)}: ${name}('${literal}') is not in the catalogs (namespace ${ns})`);
        } else useFrom(ns, m[3]);
      }
    }
    // Keys written as literals (tables of keys) in a file that uses the namespace.
    const literals = new Set([...text.matchAll(/'([\w.-]+)'|"([\w.-]+)"|\b([\w]+):/g)].map((m) => m[1] ?? m[2] ?? m[3]));
    for (const ns of namespaces) for (const k of keysOf(ns)) if (literals.has(k.slice(ns.length + 1))) used.add(k);
    // Full keys, anywhere.
    for (const l of literals) if (l in en) used.add(l);
    for (const m of text.matchAll(/`([\w.-]*)\$\{/g)) {
      for (const ns of namespaces) useFrom(ns, m[1]);
      const [ns, ...rest] = m[1].split('.');
      if (rest.length) useFrom(ns, rest.join('.'));
    }
  }
  for (const key of Object.keys(en)) if (!used.has(key)) findings.push(`en: ${key} is not used by the code`);
  return findings;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The tree to check: this one, or the one named (a copy with planted faults, in the tests).
  const findings = checkMessages(process.argv[2] ? resolve(process.argv[2]) : join(import.meta.dirname, '..'));
  for (const f of findings) console.error(f);
  console.log(findings.length ? `messages: ${findings.length} findings` : 'messages: catalogs and code agree');
  process.exit(findings.length ? 1 : 0);
}
