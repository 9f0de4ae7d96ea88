/**
 * CSV writing for the exports (RFC 4180 shape: CRLF, quotes doubled), in the user's locale: where
 * the decimal mark is a comma (pt-BR) the separator is a semicolon, as spreadsheets there expect
 * when they open a file. Text that a spreadsheet
 * would run as a formula (= + - @ at the start) gets a leading apostrophe: exported customer
 * text must never execute when a supervisor opens the file.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA = /^[=+\-@\t\r]/;

export interface CsvFormat {
  separator: string;
  decimal: string;
}

/** The separator and decimal mark a spreadsheet in this locale reads. */
export function csvFormat(locale: string): CsvFormat {
  const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return { separator: decimal === ',' ? ';' : ',', decimal };
}

const PLAIN: CsvFormat = { separator: ',', decimal: '.' };

export function csvCell(v: CsvValue, f: CsvFormat = PLAIN): string {
  if (v === null || v === undefined) return '';
  // No digit grouping: a spreadsheet reads "1234,5" in pt-BR, not "1.234,5".
  if (typeof v === 'number') return Number.isFinite(v) ? String(v).replace('.', f.decimal) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const text = FORMULA.test(v) ? `'${v}` : v;
  return /["\r\n]/.test(text) || text.includes(f.separator) ? `"${text.replace(/"/g, '""')}"` : text;
}
