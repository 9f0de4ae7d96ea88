import { test, expect } from '@playwright/test';
import { answerPart } from '../../../src-shared/kb-answer';
import { parseDocuments } from '../../../src-standin/ai/kb-parse';

/**
 * A knowledge-base answer as the customer reads it: the answer alone, as prose, whatever the
 * base was built from (interface §4.5: csv, sheets, json, xml, prose), no column names.
 */

test('a record chunk gives its answer column by the base’s columns: pergunta/resposta, question/answer, title/body, a single text column', () => {
  expect(answerPart('pergunta: Qual o prazo?; resposta: 5 dias úteis; após o pagamento.')).toBe('5 dias úteis; após o pagamento.');
  expect(answerPart('id: 7; categoria: Entrega; Pergunta: Qual o prazo?; Resposta: 5 dias úteis.')).toBe('5 dias úteis.');
  expect(answerPart('question: How long?; answer: Five working days.')).toBe('Five working days.');
  expect(answerPart('Title: Reset your password; Body: Click “Forgot my password” on the sign-in page.')).toBe(
    'Click “Forgot my password” on the sign-in page.',
  );
  expect(answerPart('texto: O atendimento funciona das 8h às 20h.')).toBe('O atendimento funciona das 8h às 20h.');
  expect(answerPart('faq.pergunta: Tem frete grátis?; faq.resposta: Acima de R$ 299,00.')).toBe('Acima de R$ 299,00.');
  expect(answerPart('Conteúdo: Aceitamos Pix e cartão.')).toBe('Aceitamos Pix e cartão.');
  // Records sharing an id come one a line: each answer, in order.
  expect(answerPart('pergunta: Prazo?; resposta: 5 dias.\npergunta: Frete?; resposta: Grátis acima de R$ 299.')).toBe(
    '5 dias.\nGrátis acima de R$ 299.',
  );
  // A question and something else, no answer column: the something else.
  expect(answerPart('assunto: Senha; orientação: Use o link de redefinição.')).toBe('Use o link de redefinição.');
});

test('prose chunks keep their words: a labelled FAQ gives its answer, anything else stays whole', () => {
  expect(answerPart('P: Como peço reembolso? R: Pelo app, em Pedidos > Reembolso, em até 7 dias.')).toBe(
    'Pelo app, em Pedidos > Reembolso, em até 7 dias.',
  );
  expect(answerPart('Q: How long?\nA: Five working days.')).toBe('Five working days.');
  expect(answerPart('Escolha a opção A: cartão de crédito.')).toBe('Escolha a opção A: cartão de crédito.');
  expect(answerPart('Atenção: o prazo é de 5 dias úteis.')).toBe('Atenção: o prazo é de 5 dias úteis.');
  expect(answerPart('Horário: 8h às 20h; sábado: 9h às 15h')).toBe('Horário: 8h às 20h; sábado: 9h às 15h');
  expect(answerPart('  O prazo é de 5 dias úteis.  ')).toBe('O prazo é de 5 dias úteis.');
});

test('every document of a CSV, JSON or sheet-like base reads as prose once answered', async () => {
  const csv = Buffer.from(
    'id;pergunta;resposta\n1;Qual o prazo?;"O prazo é de 5 dias úteis; conta a partir do pagamento."\n2;Tem frete grátis?;Sim, acima de R$ 299,00.\n',
  );
  const docs = await parseDocuments(csv, 'csv', {});
  expect(docs.map(answerPart)).toEqual(['O prazo é de 5 dias úteis; conta a partir do pagamento.', 'Sim, acima de R$ 299,00.']);
  const json = Buffer.from(
    JSON.stringify({
      faq: [
        { title: 'Senha', body: 'Use o link Esqueci minha senha.' },
        { title: 'Pix', body: 'O QR Code vale 30 minutos.' },
      ],
    }),
  );
  expect((await parseDocuments(json, 'json', {})).map(answerPart)).toEqual([
    'Use o link Esqueci minha senha.',
    'O QR Code vale 30 minutos.',
  ]);
  const single = Buffer.from('texto\nAtendemos das 8h às 20h.\n"O frete é grátis acima de R$ 299,00."\n');
  expect((await parseDocuments(single, 'csv', {})).map(answerPart)).toEqual([
    'Atendemos das 8h às 20h.',
    'O frete é grátis acima de R$ 299,00.',
  ]);
  for (const a of [...docs, ...(await parseDocuments(json, 'json', {}))].map(answerPart))
    expect(a).not.toMatch(/^(pergunta|resposta|title|body|id)\s*:/i);
});
