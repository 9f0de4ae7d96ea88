/**
 * The secrets this process holds (each workspace's token, relay password, webhook signing
 * secret), as one list that every text leaving the main process is checked against: log lines,
 * bridge answers and errors, pushed events (and so every notice and export the page makes of
 * them). A secret named by a field is hidden by its name (`secret-fields.ts`); this catches one
 * that a service echoed, or that the console's own wording put, into any text.
 */

/** Secrets shorter than this would hide ordinary words. */
const MIN_SECRET_LENGTH = 6;
/** Secrets are a handful per workspace; a bound keeps a misuse from growing the list forever. */
const MAX_SECRETS = 2_000;

const known = new Set<string>();
/**
 * Secrets the user is shown on purpose, in an address they copy (the listener's path secret in
 * its URL): kept out of the log, let through the bridge.
 */
const shown = new Set<string>();
/** Longest first, so that a secret holding another is hidden whole: every one (the log), and those the bridge hides. */
let ordered: string[] = [];
let orderedHidden: string[] = [];

function reorder(): void {
  ordered = [...known].sort((a, b) => b.length - a.length);
  orderedHidden = ordered.filter((s) => !shown.has(s));
}

/** The forms a secret takes in text: as it is, inside a JSON string, in a URL. */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  return [...forms];
}

export function rememberSecret(secret: unknown): void {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || known.has(secret)) return;
  if (known.size >= MAX_SECRETS) known.clear();
  for (const form of formsOf(secret)) known.add(form);
  reorder();
}

/** A secret the page shows on purpose (part of an address the user copies): the log still hides it. */
export function showSecretOnPage(secret: string): void {
  rememberSecret(secret);
  for (const form of formsOf(secret)) shown.add(form);
  reorder();
}

/** Whether `text` holds a secret that must not cross the bridge. */
function holdsHidden(text: string): boolean {
  for (const s of orderedHidden) if (text.includes(s)) return true;
  return false;
}

function hideIn(text: string, mark: string, list: readonly string[]): string {
  let out = text;
  for (const s of list) if (out.includes(s)) out = out.split(s).join(mark);
  return out;
}

/** `text` with every secret this process knows replaced by `mark` (the log's rule). */
export function hideKnownSecrets(text: string, mark: string): string {
  return hideIn(text, mark, ordered);
}

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object' && !(v instanceof Uint8Array);

/** Whether any string (or key) under `value` holds a known secret; iterative, bounded. */
function anyHolds(value: unknown, reveal: ReadonlySet<string>): boolean {
  if (!orderedHidden.length) return false;
  if (typeof value === 'string') return holdsHidden(value);
  if (!isContainer(value)) return false;
  // The quick look most answers get: their JSON text searched once per secret (each is also
  // listed as it appears inside a JSON string); only a hit is walked, to tell revealed fields apart.
  try {
    if (!holdsHidden(JSON.stringify(value))) return false;
  } catch {
    // Not JSON (a cycle, a bigint): walked below.
  }
  const stack: Array<{ v: object; top: boolean }> = [{ v: value, top: true }];
  let walked = 0;
  while (stack.length) {
    const { v, top } = stack.pop()!;
    if (++walked > 5_000_000) throw new Error('A value too large, or circular, to check for secrets.');
    for (const [k, x] of Object.entries(v)) {
      if (top && reveal.has(k)) continue;
      if (holdsHidden(k)) return true;
      if (typeof x === 'string') {
        if (holdsHidden(x)) return true;
      } else if (isContainer(x)) stack.push({ v: x, top: false });
    }
  }
  return false;
}

function copyHiding(value: unknown, mark: string, reveal: ReadonlySet<string>, top: boolean): unknown {
  if (typeof value === 'string') return hideIn(value, mark, orderedHidden);
  if (!isContainer(value)) return value;
  if (Array.isArray(value)) return value.map((x: unknown) => copyHiding(x, mark, reveal, false));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(value)) {
    out[hideIn(k, mark, orderedHidden)] = top && reveal.has(k) ? x : copyHiding(x, mark, reveal, false);
  }
  return out;
}

/**
 * `value` with every known secret in any string, at any depth, replaced by `mark`; the value
 * itself when it holds none (the common case, checked without copying). `reveal`: top-level
 * fields handed over on purpose (a signing secret the user asked for).
 */
export function hideKnownSecretsIn<T>(value: T, mark: string, reveal: ReadonlySet<string> = NONE): T {
  return anyHolds(value, reveal) ? (copyHiding(value, mark, reveal, true) as T) : value;
}
const NONE: ReadonlySet<string> = new Set();
