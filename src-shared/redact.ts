/**
 * Masks Brazilian personal and company documents (CPF, CNPJ) in free text. No Node imports:
 * the renderer uses it as well as the main-process log.
 *
 * Formatted numbers (123.456.789-09, 12.345.678/0001-95) are always masked. Bare digit runs are
 * masked only when their check digits are valid, so phone numbers and ids mostly survive.
 */

const CNPJ = /(?<!\d)(\d{2})\.?(\d{3})\.?(\d{3})\/?(\d{4})-?(\d{2})(?!\d)/g;
const CPF = /(?<!\d)(\d{3})\.?(\d{3})\.?(\d{3})-?(\d{2})(?!\d)/g;

function checkDigit(digits: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * (weights[i] ?? 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(value: string): boolean {
  const d = value.replace(/\D/g, '');
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  const first = checkDigit(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(d, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(d[9]) && second === Number(d[10]);
}

export function isValidCnpj(value: string): boolean {
  const d = value.replace(/\D/g, '');
  if (d.length !== 14 || /^(\d)\1{13}$/.test(d)) return false;
  const first = checkDigit(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(d[12]) && second === Number(d[13]);
}

const isFormatted = (match: string) => /[.\/-]/.test(match);

/** `123.456.789-09` -> `***.***.789-09`; `12.345.678/0001-95` -> `**.***.***\/****-95`. */
export function maskDocuments(text: string): string {
  if (!/\d{2}/.test(text)) return text;
  return text
    .replace(CNPJ, (match: string, _a: string, _b: string, _c: string, _d: string, check: string) =>
      isFormatted(match) || isValidCnpj(match) ? `**.***.***/****-${check}` : match,
    )
    .replace(CPF, (match: string, _a: string, _b: string, third: string, check: string) =>
      isFormatted(match) || isValidCpf(match) ? `***.***.${third}-${check}` : match,
    );
}
