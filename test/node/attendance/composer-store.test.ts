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
  const before = composer.focusRequest;
  composer.insert('Posso ajudar?');
  expect(composer.text).toBe(`Oi ${text}! Posso ajudar?`);
  expect(composer.focusRequest).toBe(before + 1);
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

test('an AI draft is handed to the reply box as a whole replacement, once', async () => {
  const { composer } = await composerWith(new Map());
  await composer.open(7);
  composer.setText('Olá');
  composer.provider = 'local';
  composer.model = 'local-extractive';
  await composer.aiDraft();
  expect(composer.replacement?.text).toBe('Seu pedido chega amanhã.');
  expect(composer.text).toBe('Olá');
  expect(composer.takeReplacement()).toBe('Seu pedido chega amanhã.');
  expect(composer.takeReplacement()).toBeNull();
  composer.suspend();
});
