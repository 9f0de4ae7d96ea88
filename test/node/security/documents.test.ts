import { test, expect } from '@playwright/test';
import { findDocuments, isValidCnpj, isValidCpf } from '../../../src-shared/documents';
import { maskDocuments } from '../../../src-shared/redact';
import { segmentsOf } from '../../../src-renderer/src/lib/segments';

/**
 * The one rule of what is a CPF or CNPJ in free text, and the three that use it agree: masking
 * (the log, text for the AI), the thread (hidden until shown) and the consent before a link
 * leaves (tested through the client in personal-data.test.ts).
 */

const found = (text: string) => findDocuments(text).map((d) => `${d.kind} ${text.slice(d.start, d.end)}`);

test('check digits', () => {
  expect(isValidCpf('529.982.247-25')).toBe(true);
  expect(isValidCpf('529.982.247-26')).toBe(false);
  // Right digits, but never issued.
  expect(isValidCpf('111.111.111-11')).toBe(false);
  expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
  expect(isValidCnpj('11.222.333/0001-80')).toBe(false);
  expect(isValidCnpj('00000000000000')).toBe(false);
  // A protocol number whose check digits fit by chance: establishment 0000 is no company's.
  expect(isValidCnpj('20261123000002')).toBe(false);
  expect(found('protocolo 20261123000002')).toEqual([]);
});

test('formatted numbers are documents whatever their check digits; bare ones only with valid digits', () => {
  expect(found('cpf 123.456.789-09.')).toEqual(['CPF 123.456.789-09']);
  expect(found('cnpj 12.345.678/0001-95 ok')).toEqual(['CNPJ 12.345.678/0001-95']);
  // Any of the punctuation makes it formatted; a CNPJ's slash written as a dot too.
  expect(found('123456789-09 e 12.345.678.0001-95')).toEqual(['CPF 123456789-09', 'CNPJ 12.345.678.0001-95']);
  expect(found('{"cpf":"52998224725","cnpj":"11222333000181"}')).toEqual(['CPF 52998224725', 'CNPJ 11222333000181']);
  // Bare runs with wrong check digits, phone numbers, ids and dates are not.
  expect(found('phone 11987654321, order 12345, 2024-01-01, 52998224726, 11222333000180')).toEqual([]);
  // A number glued to more digits is part of another number.
  expect(found('x5299822472599')).toEqual([]);
  expect(found('x11222333000181y')).toEqual(['CNPJ 11222333000181']);
});

test('masking hides exactly what the finder finds, keeping the last digits', () => {
  const text = 'CPF 529.982.247-25, bare 52998224725, CNPJ 12.345.678/0001-95, bare 11222333000181, phone 11987654321.';
  expect(maskDocuments(text)).toBe(
    'CPF ***.***.247-25, bare ***.***.247-25, CNPJ **.***.***/****-95, bare **.***.***/****-81, phone 11987654321.',
  );
  expect(maskDocuments('nothing here')).toBe('nothing here');
});

test("the thread hides the same documents until shown, with or without the service's entities", () => {
  const text = 'Meu CPF é 52998224725 e o da empresa 11.222.333/0001-81; pedido 12345.';
  const secrets = segmentsOf(text, []).filter((s) => s.secret);
  expect(secrets.map((s) => `${s.label} ${s.text}`)).toEqual(['CPF 52998224725', 'CNPJ 11.222.333/0001-81']);
  expect(
    segmentsOf(text, [])
      .map((s) => s.text)
      .join(''),
  ).toBe(text);
  // An entity the service recognised over the same span is not split or doubled.
  const start = text.indexOf('52998224725');
  const withEntity = segmentsOf(text, [{ text: '52998224725', label: 'cpf', start, end: start + 11 }]);
  expect(withEntity.filter((s) => s.secret).map((s) => s.text)).toEqual(['52998224725', '11.222.333/0001-81']);
});
