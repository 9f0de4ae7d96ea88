import { scalarText, shownValue } from '../scalar';
import type { FileType } from './kb-fetch';

/**
 * Turns a downloaded file into the documents of a knowledge base (interface §4.5).
 * Prose (txt, pdf, docx) is split by `separator_doc_engine`, or by blank lines when none is
 * given. Records (csv, tsv, sheets, json, xml) become one document per record, rendered as
 * "field: value; ..."; with `id_doc_engine` the records sharing that field's value form one
 * document. Parsers are loaded on first use so the stand-in starts fast.
 */
export interface SplitOptions {
  separator?: string | undefined;
  idField?: string | undefined;
}

/** Longest document kept whole; longer ones are cut at sentence ends. */
const MAX_CHUNK_CHARS = 1200;
export const MAX_DOCUMENTS = 20_000;

/** Lets a caller write "\n" or "\t" as two characters in JSON and still mean a line break. */
export function unescapeSeparator(s: string): string {
  return s.replace(/\\([nrt\\])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : '\\'));
}

export async function parseDocuments(bytes: Buffer, type: FileType, opts: SplitOptions): Promise<string[]> {
  const separator = opts.separator ? unescapeSeparator(opts.separator) : undefined;
  let docs: string[];
  switch (type) {
    case 'txt':
      docs = splitProse(decodeText(bytes), separator);
      break;
    case 'pdf':
      docs = splitProse(await pdfText(bytes), separator);
      break;
    case 'docx':
      docs = splitProse(await docxText(bytes), separator);
      break;
    case 'csv':
    case 'tsv': {
      const text = decodeText(bytes);
      // A separator other than a line break cuts the raw text; a line break is the row-per-document default.
      if (separator && !/^\r?\n$/.test(separator)) docs = splitProse(text, separator);
      else docs = recordsToDocuments(tableToRecords(parseDelimited(text, type === 'tsv' ? '\t' : guessDelimiter(text))), opts.idField);
      break;
    }
    case 'xls':
    case 'xlsx':
    case 'ods':
      docs = recordsToDocuments(await sheetRecords(bytes), opts.idField);
      break;
    case 'json':
      docs = recordsToDocuments(findRecords(JSON.parse(decodeText(bytes)) as unknown, opts.idField), opts.idField);
      break;
    case 'xml':
      docs = recordsToDocuments(findRecords(await xmlTree(bytes), opts.idField), opts.idField);
      break;
  }
  const chunks = docs.flatMap((d) => cutLong(d));
  if (chunks.length === 0) throw new Error('The file holds no text to index.');
  if (chunks.length > MAX_DOCUMENTS) throw new Error(`The file splits into ${chunks.length} documents; the limit is ${MAX_DOCUMENTS}.`);
  return chunks;
}

function decodeText(bytes: Buffer): string {
  // UTF-8 first; Latin-1 when the bytes are not valid UTF-8 (older Brazilian exports).
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

function splitProse(text: string, separator: string | undefined): string[] {
  const normal = text.replace(/\r\n?/g, '\n');
  const pieces = separator ? normal.split(separator) : normal.split(/\n[ \t]*\n+/);
  return pieces.map((p) => p.replace(/[ \t]+/g, ' ').trim()).filter(Boolean);
}

function cutLong(doc: string): string[] {
  if (doc.length <= MAX_CHUNK_CHARS) return [doc];
  const out: string[] = [];
  let current = '';
  for (const s of doc.match(/[^.!?\n]+[.!?]*\s*|\n+/g) ?? [doc]) {
    if (current && current.length + s.length > MAX_CHUNK_CHARS) {
      out.push(current.trim());
      current = '';
    }
    current += s;
    while (current.length > MAX_CHUNK_CHARS) {
      out.push(current.slice(0, MAX_CHUNK_CHARS).trim());
      current = current.slice(MAX_CHUNK_CHARS);
    }
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

// ---- prose formats ------------------------------------------------------------------

async function pdfText(bytes: Buffer): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    // Pages end a paragraph even when the PDF has no blank line there.
    return text.join('\n\n');
  } finally {
    await pdf.destroy();
  }
}

async function docxText(bytes: Buffer): Promise<string> {
  const mammoth = await import('mammoth');
  const extract = (mammoth.default ?? mammoth).extractRawText;
  const { value } = await extract({ buffer: bytes });
  return value;
}

// ---- records ------------------------------------------------------------------------

type Row = string[];
export type Record_ = Record<string, unknown>;

function guessDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => first.split(c).length - 1;
  return count(';') > count(',') ? ';' : count('\t') > count(',') ? '\t' : ',';
}

/** RFC 4180 reader: quoted fields may hold the delimiter, doubled quotes and line breaks. */
export function parseDelimited(text: string, delimiter: string): Row[] {
  const rows: Row[] = [];
  let row: Row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

/** First row is the header; blank headers become "column N". */
function tableToRecords(rows: Row[]): Record_[] {
  const [header, ...body] = rows;
  if (!header) return [];
  const names = header.map((h, i) => h.trim() || `column ${i + 1}`);
  return body.map((r) => Object.fromEntries(names.map((n, i) => [n, (r[i] ?? '').trim()])));
}

async function sheetRecords(bytes: Buffer): Promise<Record_[]> {
  const XLSX = await import('@e965/xlsx');
  const book = XLSX.read(bytes, { type: 'buffer', cellDates: true, dense: true });
  const out: Record_[] = [];
  for (const name of book.SheetNames) {
    const sheet = book.Sheets[name];
    if (!sheet) continue;
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: false });
    out.push(...tableToRecords(rows.map((r) => r.map((v) => scalarText(v) ?? ''))));
  }
  return out;
}

async function xmlTree(bytes: Buffer): Promise<unknown> {
  const { XMLParser, XMLValidator } = await import('fast-xml-parser');
  const text = decodeText(bytes);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`The XML is not well formed: ${valid.err.msg} (line ${valid.err.line}).`);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    textNodeName: 'text',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: true,
  }).parse(text);
}

const isRecord = (v: unknown): v is Record_ => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The records of a JSON or XML tree: the largest list of objects in it (preferring lists whose
 * objects carry `idField`), or the root object itself.
 */
export function findRecords(tree: unknown, idField?: string): Record_[] {
  let best: Record_[] | null = null;
  let bestRank = -1;
  const visit = (v: unknown, depth: number) => {
    if (depth > 12) return;
    if (Array.isArray(v)) {
      const objs = v.filter(isRecord);
      if (objs.length) {
        const hasId = idField ? objs.some((o) => idField in o) : false;
        const rank = (hasId ? 1e9 : 0) + objs.length;
        if (rank > bestRank) {
          best = objs;
          bestRank = rank;
        }
      }
      for (const x of v) visit(x, depth + 1);
    } else if (isRecord(v)) {
      for (const x of Object.values(v)) visit(x, depth + 1);
    }
  };
  visit(tree, 0);
  if (best) return best;
  // XML with a single record parses to nested objects: take the innermost object with leaves.
  if (isRecord(tree)) {
    const values = Object.values(tree);
    if (values.length === 1 && isRecord(values[0])) return findRecords(values[0], idField);
    return [tree];
  }
  return [];
}

/** "field: value; other: value", nested fields dotted, lists joined. */
export function renderRecord(r: Record_, prefix = ''): string[] {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(r)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v === null || v === undefined || v === '') continue;
    if (Array.isArray(v)) {
      const flat = v.map((x) => (isRecord(x) ? renderRecord(x).join(', ') : String(x))).filter(Boolean);
      if (flat.length) parts.push(`${key}: ${flat.join(', ')}`);
    } else if (isRecord(v)) parts.push(...renderRecord(v, key));
    else parts.push(`${key}: ${v instanceof Date ? v.toISOString().slice(0, 10) : shownValue(v).trim()}`);
  }
  return parts;
}

function recordsToDocuments(records: Record_[], idField: string | undefined): string[] {
  if (!idField) return records.map((r) => renderRecord(r).join('; ')).filter(Boolean);
  if (records.length && !records.some((r) => idField in r)) {
    throw new Error(`id_doc_engine "${idField}" is not a field of the records (fields: ${Object.keys(records[0] ?? {}).join(', ')}).`);
  }
  const groups = new Map<string, string[]>();
  records.forEach((r, i) => {
    const id = r[idField];
    const key = id === undefined || id === null || id === '' ? `#row${i}` : shownValue(id);
    const text = renderRecord(r).join('; ');
    if (text) groups.set(key, [...(groups.get(key) ?? []), text]);
  });
  return [...groups.values()].map((texts) => texts.join('\n'));
}
