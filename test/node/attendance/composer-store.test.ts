import { expect, test } from '@playwright/test';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as composerModule from '../../../src-renderer/src/features/attendance/composer.svelte';

type Composer = typeof composerModule;

async function composerWith(drafts: Map<number, string>) {
  const bridge = await installFakeBridge({
    'notes:draft': ({ sessionId }) => ({ reply: drafts.get(sessionId) ?? '', note: '' }),
    'notes:setDraft': ({ sessionId, text }) => {
      drafts.set(sessionId, text);
      return { ok: true };
    },
    'attendance:aiDraft': () => ({ text: 'Seu pedido chega amanhã.' }),
    'attendance:help': () =>
      ({
        canned: [
          { id: 1, code: 'saud', description: 'Greeting', text: 'Olá {nome}, sou {agente}. Protocolo {protocolo}.' },
          { id: 2, code: 'fim', description: 'End', text: 'Obrigado!' },
        ],
        suggestions: [],
        templates: [],
        failed: [],
        skipped: 0,
      }) as never,
  });
  const { ComposerStore } = await importRunes<Composer>('src-renderer/src/features/attendance/composer.svelte.ts');
  return { composer: (await newScope()).use(ComposerStore), bridge };
}

test('the reply draft is kept per session: switching saves it, coming back shows it', async () => {
  const drafts = new Map([[7, 'Bom dia']]);
  const { composer } = await composerWith(drafts);
  await composer.open(7);
  expect(composer.text).toBe('Bom dia');
  composer.setText('Bom dia, Carla');
  await composer.open(8);
  expect(composer.text).toBe('');
  await expect.poll(() => drafts.get(7)).toBe('Bom dia, Carla');
  await composer.open(7);
  expect(composer.text).toBe('Bom dia, Carla');
  composer.suspend();
});

test('canned replies: matched by code prefix, placeholders filled, the /code token replaced where typed', async () => {
  const { composer } = await composerWith(new Map());
  await composer.open(7);
  expect(composer.matches('SA').map((c) => c.code)).toEqual(['saud']);
  const text = composer.fill(composer.matches('saud')[0]!.text, { agent: 'Ana', protocol: 'P-7', customer: null });
  expect(text).toBe('Olá {nome}, sou Ana. Protocolo P-7.');
  composer.setText('Oi /saud!');
  const caret = composer.expand(3, 5, text);
  expect(composer.text).toBe(`Oi ${text}!`);
  expect(caret).toBe(3 + text.length);
  composer.suspend();
});

test("a reply that could not be sent goes back into its session's draft once, and leaves it when sent after all", async () => {
  const drafts = new Map<number, string>();
  const { composer } = await composerWith(drafts);
  await composer.open(7);
  composer.setText('typed since');
  await composer.keepUnsent(7, 'Seu reembolso foi aprovado');
  await composer.keepUnsent(7, 'Seu reembolso foi aprovado');
  expect(composer.text).toBe('Seu reembolso foi aprovado\n\ntyped since');
  // Another session's failed reply lands in that session's saved draft, not in this box.
  await composer.keepUnsent(9, 'Segue o boleto');
  expect(drafts.get(9)).toBe('Segue o boleto');
  await composer.forgetUnsent(9, 'Segue o boleto');
  expect(drafts.get(9)).toBe('');
  composer.suspend();
});

test('help goes straight into an empty reply; over typed text it waits for the attendant to say where, once', async () => {
  const { composer } = await composerWith(new Map());
  await composer.open(7);
  composer.provider = 'local';
  composer.model = 'local-extractive';
  // An empty box: the draft goes in at once, as a whole.
  await composer.aiDraft();
  expect(composer.offered).toBeNull();
  expect(composer.takeEdit()).toEqual({ how: 'replace', text: 'Seu pedido chega amanhã.' });
  expect(composer.takeEdit()).toBeNull();
  // Text typed: nothing moves until the attendant chooses.
  composer.setText('Olá');
  await composer.aiDraft();
  expect(composer.offered).toEqual({ text: 'Seu pedido chega amanhã.', source: 'ai' });
  expect(composer.edit).toBeNull();
  expect(composer.text).toBe('Olá');
  composer.place('append');
  expect(composer.offered).toBeNull();
  expect(composer.takeEdit()).toEqual({ how: 'append', text: 'Seu pedido chega amanhã.' });
  // Kept as typed: nothing goes in.
  composer.offer('Resposta da base', 'kb');
  composer.dismissOffer();
  expect(composer.offered).toBeNull();
  expect(composer.edit).toBeNull();
  // Undo gives back what the box had, until the attendant edits again; another session starts clean.
  composer.applied({ text: 'Olá', start: 1, end: 2 });
  expect(composer.canUndo).toBe(true);
  composer.undo();
  expect(composer.canUndo).toBe(false);
  expect(composer.takeRestore()).toEqual({ text: 'Olá', start: 1, end: 2 });
  composer.applied({ text: 'Olá', start: 3, end: 3 });
  composer.edited();
  expect(composer.canUndo).toBe(false);
  composer.offer('x', 'suggestion');
  await composer.open(8);
  expect(composer.offered).toBeNull();
  composer.suspend();
});

test('where help goes: over the whole reply, at the caret (or over the selection), or after it, words kept apart', async () => {
  const { placement } = await importRunes<Composer>('src-renderer/src/features/attendance/composer.svelte.ts');
  const typed = 'Bom dia, Carla.';
  const apply = (p: { from: number; to: number; insert: string }) => typed.slice(0, p.from) + p.insert + typed.slice(p.to);
  expect(apply(placement(typed, 4, 4, 'replace', 'Olá!'))).toBe('Olá!');
  expect(apply(placement(typed, 8, 8, 'insert', 'tudo bem?'))).toBe('Bom dia, tudo bem? Carla.');
  expect(apply(placement(typed, 3, 3, 'insert', 'X'))).toBe('Bom X dia, Carla.');
  expect(apply(placement(typed, 9, 14, 'insert', 'Ana'))).toBe('Bom dia, Ana.');
  expect(apply(placement(typed, 0, 0, 'append', 'Seu pedido chega amanhã.'))).toBe('Bom dia, Carla. Seu pedido chega amanhã.');
  expect(apply(placement(typed, 99, 120, 'insert', 'fim'))).toBe('Bom dia, Carla. fim');
});
