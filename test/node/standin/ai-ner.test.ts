import { test, expect } from '@playwright/test';
import { NerAnswerSchema } from '../../../src-shared/schemas/ai';
import { isValidCnpj, isValidCpf } from '../../../src-shared/documents';
import { recognizeEntities, type Entity } from '../../../src-standin/ai/ner';
import { AI_PATHS, aiService, call } from './ai-helpers';

/** Label -> texts, for readable expectations. */
const byLabel = (entities: Entity[]) => {
  const out: Record<string, string[]> = {};
  for (const e of entities) (out[e.label] ??= []).push(e.text);
  return out;
};

function checkOffsets(sentence: string, entities: Entity[]) {
  for (const e of entities) {
    expect(sentence.slice(e.start, e.end)).toBe(e.text);
    expect(e.score).toBeGreaterThan(0);
    expect(e.score).toBeLessThanOrEqual(1);
  }
}

test.describe('NER, rule-based', () => {
  test('check digits decide what is a CPF or CNPJ', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('529.982.247-26')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false); // right digits, but never issued
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-80')).toBe(false);
    // Check digits that fit by chance on a protocol number: establishment 0000 is no company's.
    expect(isValidCnpj('20261123000002')).toBe(false);
    expect(recognizeEntities('Protocolo 20261123000002 aberto.').filter((e) => e.label === 'CNPJ')).toEqual([]);
  });

  test('a valid CPF is labelled with exact offsets; an invalid one is not a CPF', () => {
    const s = 'Meu CPF é 529.982.247-25, mas no cadastro ficou 529.982.247-26.';
    const ents = recognizeEntities(s);
    checkOffsets(s, ents);
    const cpfs = ents.filter((e) => e.label === 'CPF');
    expect(cpfs).toEqual([{ text: '529.982.247-25', label: 'CPF', start: 10, end: 24, score: expect.any(Number) }]);
    // The invalid number is not given any label at all (it is not a phone either).
    expect(ents.some((e) => e.text.includes('247-26'))).toBe(false);
  });

  test('unformatted CPF and CNPJ are recognised only when their digits check', () => {
    const s = 'CPF 52998224725, CNPJ 11222333000181 e o número 12345678900.';
    const got = byLabel(recognizeEntities(s));
    expect(got.CPF).toEqual(['52998224725']);
    expect(got.CNPJ).toEqual(['11222333000181']);
    expect(JSON.stringify(got)).not.toContain('12345678900');
  });

  test('Portuguese sentence with person, organisation, address, CEP and CNPJ', () => {
    const s =
      'A cliente Ana Paula da Silva comprou na Padaria Pão Quente Ltda, CNPJ 11.222.333/0001-81, Rua Augusta, 1500, São Paulo/SP, CEP 01310-100.';
    const ents = recognizeEntities(s);
    checkOffsets(s, ents);
    expect(byLabel(ents)).toEqual({
      PERSON: ['Ana Paula da Silva'],
      ORG: ['Padaria Pão Quente Ltda'],
      CNPJ: ['11.222.333/0001-81'],
      LOC: ['Rua Augusta, 1500', 'São Paulo/SP'],
      CEP: ['01310-100'],
    });
  });

  test('phones, e-mail, date and time in Portuguese', () => {
    const s = 'Liguei para (11) 98765-4321 e +55 21 3333-4444 às 14h30 de 12/03/2024; escreva para joao.souza@exemplo.com.br.';
    const ents = recognizeEntities(s);
    checkOffsets(s, ents);
    expect(byLabel(ents)).toEqual({
      PHONE: ['(11) 98765-4321', '+55 21 3333-4444'],
      TIME: ['14h30'],
      DATE: ['12/03/2024'],
      EMAIL: ['joao.souza@exemplo.com.br'],
    });
  });

  test('money, percentage, quantity, durations and a company', () => {
    const s = 'Paguei R$ 1.234,56 com 15% de desconto no Itaú; as 3 caixas chegam em 7 dias úteis, e a multa foi de cinquenta reais.';
    const got = byLabel(recognizeEntities(s));
    expect(got.MONEY).toEqual(['R$ 1.234,56', 'cinquenta reais']);
    expect(got.PERCENT).toEqual(['15%']);
    expect(got.ORG).toEqual(['Itaú']);
    expect(got.QUANTITY).toEqual(['3 caixas']);
    expect(got.DATE).toEqual(['7 dias úteis']);
  });

  test('a name stops where a company begins, and words that are also companies need context', () => {
    const s1 = 'Falei com a Maria da Vivo ontem às 3 da tarde.';
    expect(byLabel(recognizeEntities(s1))).toEqual({ PERSON: ['Maria'], ORG: ['Vivo'], DATE: ['ontem'], TIME: ['3 da tarde'] });
    // "Claro" opening a sentence is the word "of course", not the carrier.
    const s2 = 'Claro, o Sr. Roberto Mendes mora em Belo Horizonte desde 5 de março de 2020.';
    expect(byLabel(recognizeEntities(s2))).toEqual({ PERSON: ['Roberto Mendes'], LOC: ['Belo Horizonte'], DATE: ['5 de março de 2020'] });
  });

  test('English sentence', () => {
    const s = 'My name is John Smith, I paid $49.99 on March 5, 2024 at 10:30 am to Amazon in New York; 20 percent off, 2 kg.';
    const ents = recognizeEntities(s);
    checkOffsets(s, ents);
    expect(byLabel(ents)).toEqual({
      PERSON: ['John Smith'],
      MONEY: ['$49.99'],
      DATE: ['March 5, 2024'],
      TIME: ['10:30 am'],
      ORG: ['Amazon'],
      LOC: ['New York'],
      PERCENT: ['20 percent'],
      QUANTITY: ['2 kg'],
    });
  });

  test('a plain greeting has no entities, and offsets hold past characters outside the BMP', () => {
    expect(recognizeEntities('Oi, boa tarde! Quero cancelar o pedido.')).toEqual([]);
    const s = 'Obrigado 🙂 Maria, meu e-mail é maria@exemplo.com';
    const ents = recognizeEntities(s);
    checkOffsets(s, ents);
    expect(byLabel(ents)).toEqual({ PERSON: ['Maria'], EMAIL: ['maria@exemplo.com'] });
  });
});

test.describe('NER operation', () => {
  test('answers {entities} for {sentence}', async () => {
    const svc = aiService();
    try {
      const sentence = 'O CPF do João é 529.982.247-25.';
      const r = await call(svc, AI_PATHS.ner, { sentence });
      expect(r.status).toBe(200);
      const body = NerAnswerSchema.parse(r.json);
      expect(body.entities.map((e) => [e.label, e.text])).toEqual([
        ['PERSON', 'João'],
        ['CPF', '529.982.247-25'],
      ]);
      for (const e of body.entities) expect(sentence.slice(Number(e.start), Number(e.end))).toBe(e.text);
    } finally {
      await svc.close();
    }
  });

  test('a body without a sentence is a 400 ERROR envelope; an unknown AI path is 404', async () => {
    const svc = aiService();
    try {
      const bad = await call(svc, AI_PATHS.ner, { text: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_BODY', message: expect.stringContaining('sentence') });
      const notJson = await call(svc, AI_PATHS.ner, '{nope');
      expect(notJson.status).toBe(400);
      expect(notJson.json).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_JSON' });
      const unknown = await call(svc, '/transformersapi/1.0/translate', { sentence: 'x' });
      expect(unknown).toMatchObject({ status: 404, json: { status: 'Not Found' } });
      const unknownVoice = await call(svc, '/voicemodelapi/1.0/clone', {});
      expect(unknownVoice).toMatchObject({ status: 404, json: { status: 'Not Found' } });
    } finally {
      await svc.close();
    }
  });
});
