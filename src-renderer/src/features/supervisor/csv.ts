/**
 * CSV writing for the exports (RFC 4180: comma, CRLF, quotes doubled). Text that a spreadsheet
 * would run as a formula (= + - @ at the start) gets a leading apostrophe: exported customer
 * text must never execute when a supervisor opens the file.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const text = FORMULA.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A byte-order mark first, so spreadsheet programs read accented names as UTF-8. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<CsvValue>>): string {
  const lines = [header.map(csvCell).join(','), ...rows.map((r) => r.map(csvCell).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Offers the text as a file download (the browser, or Electron's save dialog). */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
