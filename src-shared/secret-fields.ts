/**
 * Fields that carry secrets, and their removal from what leaves the main process. The service's
 * records hold credentials in fields of many names (interface §2.8: a user's `accessKey` and
 * `password`, an agent's `agentToken`, `socialToken` and `passwordAttendance`; §2.9: a cognition's
 * `appKey` and `password`, a chat web configuration's `token`), and a server may add more. One
 * rule, by the words of a field's name, decides for the bridge (every answer and event) and the
 * log alike. No Node imports: the renderer reads `HIDDEN` to show such a field as hidden.
 */

/** What a secret field holds once it has crossed the bridge: the value never does. */
export const HIDDEN = '[hidden]';

/** A name with one of these words is a secret's: `agentToken`, `passwordAttendance`, `client_secret`. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'secrets',
  'token',
  'tokens',
  'credential',
  'credentials',
  'authorization',
  'cookie',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'appkey',
]);
/** `key` after one of these is a secret's too (`accessKey`, `app_key`); alone it is a field's name (`key` of a condition). */
const KEY_OWNERS = new Set(['access', 'app', 'api', 'secret', 'private', 'client', 'auth', 'signing', 'encryption', 'master']);

/** The words of a field name, however it is spelt: camelCase, snake_case, kebab-case, dotted. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const verdicts = new Map<string, boolean>();

/** Whether a field of this name holds a secret (its value, that is: a flag such as `tokenRefused` says nothing of one). */
export function isSecretField(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    const words = wordsOf(name);
    verdict = words.some((w, i) => SECRET_WORDS.has(w) || (w === 'key' && i > 0 && KEY_OWNERS.has(words[i - 1]!)));
    // Field names come from a small vocabulary; a hostile answer's endless new names are not kept.
    if (verdicts.size < 10_000) verdicts.set(name, verdict);
  }
  return verdict;
}

/** A value under a secret field's name that would tell something: not a flag, not empty. */
export function carriesSecret(name: string, value: unknown): boolean {
  return value !== null && value !== undefined && value !== '' && value !== HIDDEN && typeof value !== 'boolean' && isSecretField(name);
}

const isContainer = (v: unknown): v is object => {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A copy of `value` with every secret field, at any depth, replaced by `HIDDEN`; the parts that
 * hold none are shared, not copied, and a value without secrets comes back as it is. `reveal`
 * names top-level fields a channel hands over on purpose (a signing secret the user asked for).
 * Iterative, so no nesting depth can overflow the stack.
 */
export function redactSecrets<T>(value: T, reveal: ReadonlySet<string> = NO_NAMES): T {
  if (!isContainer(value) || !holdsSecret(value, reveal)) return value;
  // Every container reached, with each place it was reached from (a record may sit in two places).
  const nodes: Array<{ value: object; parents: Array<[number, string | number]> }> = [{ value, parents: [] }];
  const indexOf = new Map<object, number>([[value, 0]]);
  const hits: Array<[number, string]> = [];
  const dirty = new Set<number>();
  const markDirty = (start: number) => {
    const todo = [start];
    while (todo.length) {
      const i = todo.pop()!;
      if (dirty.has(i)) continue;
      dirty.add(i);
      for (const [p] of nodes[i]!.parents) todo.push(p);
    }
  };
  const stack = [0];
  while (stack.length) {
    const i = stack.pop()!;
    const v = nodes[i]!.value;
    const array = Array.isArray(v);
    const entries: Array<[string | number, unknown]> = array ? (v as unknown[]).map((x, n) => [n, x]) : Object.entries(v);
    for (const [k, child] of entries) {
      if (!array && carriesSecret(k as string, child) && !(i === 0 && reveal.has(k as string))) {
        hits.push([i, k as string]);
        markDirty(i);
        continue;
      }
      if (!isContainer(child)) continue;
      const known = indexOf.get(child);
      if (known !== undefined) {
        nodes[known]!.parents.push([i, k]);
        if (dirty.has(known)) markDirty(i);
        continue;
      }
      indexOf.set(child, nodes.length);
      nodes.push({ value: child, parents: [[i, k]] });
      stack.push(nodes.length - 1);
    }
  }
  if (!dirty.size) return value;
  // Copy only the containers on a path to a secret, then link the copies and hide the secrets.
  const copies = new Map<number, Record<string | number, unknown>>();
  for (const i of dirty) {
    const v = nodes[i]!.value;
    copies.set(i, (Array.isArray(v) ? [...(v as unknown[])] : { ...v }) as Record<string | number, unknown>);
  }
  for (const i of dirty) for (const [p, k] of nodes[i]!.parents) copies.get(p)![k] = copies.get(i);
  for (const [i, k] of hits) copies.get(i)![k] = HIDDEN;
  return copies.get(0) as T;
}
const NO_NAMES: ReadonlySet<string> = new Set();

/** Containers a scan walks at most: JSON has no cycles, a value with one must not hang the bridge. */
const MAX_NODES = 5_000_000;

/**
 * Whether anything under `root` is a secret field: the quick look every answer gets (most hold
 * none and go out as they are), without the bookkeeping of a copy.
 */
function holdsSecret(root: object, reveal: ReadonlySet<string>): boolean {
  const stack: unknown[] = [root];
  let walked = 0;
  while (stack.length) {
    const v = stack.pop()!;
    if (++walked > MAX_NODES) throw new Error('A value too large, or circular, to check for secrets.');
    if (Array.isArray(v)) {
      for (const x of v) if (isContainer(x)) stack.push(x);
      continue;
    }
    const rec = v as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      const x = rec[k];
      if (carriesSecret(k, x) && !(v === root && reveal.has(k))) return true;
      if (isContainer(x)) stack.push(x);
    }
  }
  return false;
}

/**
 * A record as the user edited it, without the fields still `HIDDEN`: a save leaves those as the
 * service holds them (a save merges the fields it is given, DESIGN.md §2), never writes the mark.
 */
export function withoutHidden<T>(value: T, depth = 0): T {
  if (depth > 64 || !isContainer(value)) return value;
  if (Array.isArray(value)) return value.map((x: unknown) => withoutHidden(x, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(value)) if (x !== HIDDEN) out[k] = withoutHidden(x, depth + 1);
  return out as T;
}

/**
 * A JSON text (a webhook body as received, perhaps cut short) with its secret fields hidden: a
 * whole document is read and written again only when it held one; a cut one has its secret
 * strings and numbers hidden where they stand.
 */
export function redactJsonText(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    const hidden = redactSecrets(parsed);
    return hidden === parsed ? text : JSON.stringify(hidden);
  } catch {
    return text.replace(
      /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"?|-?\d[\d.eE+-]*)/g,
      (whole, key: string, colon: string, v: string) => (isSecretField(key) && v !== '""' ? `"${key}"${colon}"${HIDDEN}"` : whole),
    );
  }
}
