import { expect, test } from '@playwright/test';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as voiceModule from '../../../src-renderer/src/features/voice/voice.svelte';
import type * as i18nModule from '../../../src-renderer/src/lib/i18n.svelte';

type Voice = typeof voiceModule;
type I18n = typeof i18nModule;

test("voice: the language switches to the interface's when the service does not offer the stored one; a transcript kept per session becomes a note once", async () => {
  let language = 'en-US';
  const notes: Array<{ sessionId: number; text: string }> = [];
  await installFakeBridge({
    'voice:state': () => ({ enabled: true, language }),
    'voice:languages': () => ({ languages: ['pt-BR', 'es-ES'] }),
    'voice:setLanguage': (input) => ({ enabled: true, language: (language = input.language) }),
    'voice:calls': () => ({ calls: [], log: [] }) as never,
    'notes:add': ({ sessionId, text }) => {
      notes.push({ sessionId, text });
      return { id: 'n', ref: 'AAAA1111', sessionId, text, state: 'pending', createdAt: 1, updatedAt: 1, attempts: 0 };
    },
  });
  const { i18n } = await importRunes<I18n>('src-renderer/src/lib/i18n.svelte.ts');
  i18n.setLocale('pt-BR');
  await i18n.ready;
  const { VoiceStore } = await importRunes<Voice>('src-renderer/src/features/voice/voice.svelte.ts');
  const scope = await newScope();
  const voice = scope.use(VoiceStore);
  await voice.init();
  expect([voice.enabled, voice.language]).toEqual([true, 'pt-BR']);

  await voice.open(7);
  voice.transcript = 'Cliente pediu reembolso';
  await voice.open(8);
  expect(voice.transcript).toBe('');
  await voice.open(7);
  expect(voice.transcript).toBe('Cliente pediu reembolso');

  await voice.save();
  await voice.save();
  expect(notes).toEqual([{ sessionId: 7, text: 'Cliente pediu reembolso' }]);
  expect(voice.transcript).toBe('');

  voice.transcript = 'rascunho';
  voice.discard();
  expect(voice.transcript).toBe('');
  scope.close();
});
