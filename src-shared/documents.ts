/**
 * The one finder of Brazilian personal and company documents (CPF, CNPJ) in free text, for
 * everything that hides them: the log and the AI calls (masking), the renderer's thread (shown
 * only when clicked) and the consent asked before a link carrying one leaves. No Node imports.
 *
 * A formatted number (123.456.789-09, 12.345.678/0001-95, any of its punctuation) is a document
 * whatever its check digits: a mistyped digit still names someone. A bare digit run is one only
 * when its check digits are valid, so phone numbers and ids mostly pass.
 */

export type DocumentKind = 'CPF' | 'CNPJ';

export interface FoundDocument {
  kind: DocumentKind;
  /** Where it sits in the text: `text.slice(start, end)`. */
  start: number;
  end: number;
  /** Its digits alone (11 for a CPF, 14 for a CNPJ). */
  digits: string;
}

// A CNPJ's "/" is sometimes written as a dot; both are read.
const CNPJ = /(?<!\d)\d{2}\.?\d{3}\.?\d{3}[/.]?\d{4}-?\d{2}(?!\d)/g;
const CPF = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;

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
  // Digits 9-12 number the establishment from 0001: a run with 0000 there (a protocol number
  // such as 20261123000002, whose check digits happen to fit) is no company's.
  if (d.length !== 14 || /^(\d)\1{13}$/.test(d) || d.slice(8, 12) === '0000') return false;
  const first = checkDigit(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(d[12]) && second === Number(d[13]);
}

const isFormatted = (match: string) => /[./-]/.test(match);

/** Every CPF and CNPJ in `text`, in order. */
export function findDocuments(text: string): FoundDocument[] {
  if (!/\d{2}/.test(text)) return [];
  const found: FoundDocument[] = [];
  const add = (kind: DocumentKind, m: RegExpMatchArray, valid: (s: string) => boolean) => {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    if (found.some((f) => f.start < end && start < f.end)) return;
    if (isFormatted(m[0]) || valid(m[0])) found.push({ kind, start, end, digits: m[0].replace(/\D/g, '') });
  };
  for (const m of text.matchAll(CNPJ)) add('CNPJ', m, isValidCnpj);
  for (const m of text.matchAll(CPF)) add('CPF', m, isValidCpf);
  return found.sort((a, b) => a.start - b.start);
}
