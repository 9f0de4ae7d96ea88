import { test, expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openConsole } from '../../support/console';
import { startCaptureProxy } from '../../support/capture-proxy';
import { serviceApi } from '../../support/web';
import { startStandin } from '../../../src-standin/index';
import { Vault } from '../../../src-main/vault/vault';
import { KeyFileCipher } from '../../../src-main/vault/node-cipher';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { badgeCount, createBadgeSlot, electronBadgeSetter } from '../../../src-main/features/attendance/badge';
import { maskExcept, revealedDocuments } from '../../../src-main/features/attendance/reveal';

const CPF_SHOWN = '529.982.247-25';
const CPF_HIDDEN = '111.444.777-35';

test('the badge slot shows whole counts from 0 to 999 and calls the platform only when the number changes', () => {
  expect([badgeCount(-3), badgeCount(0), badgeCount(2.7), badgeCount(5_000), badgeCount(Number.NaN)]).toEqual([0, 0, 2, 999, 0]);
  const slot = createBadgeSlot();
  slot.set(4);
  const seen: number[] = [];
  const unbind = slot.bind((n) => seen.push(n));
  // Binding shows what was already counted.
  expect(seen).toEqual([4]);
  slot.set(4);
  slot.set(7);
  slot.set(7.2);
  slot.set(0);
  expect(seen).toEqual([4, 7, 0]);
  unbind();
  slot.set(3);
  expect(seen).toEqual([4, 7, 0]);
  expect(slot.count).toBe(3);
});

test("Electron's setter: a desktop without badges is said once in the log, never thrown", () => {
  const calls: number[] = [];
  const warnings: string[] = [];
  const refusing = electronBadgeSetter({ setBadgeCount: (n) => (calls.push(n ?? -1), false) }, (m) => warnings.push(m));
  refusing(2);
  refusing(3);
  expect(calls).toEqual([2, 3]);
  expect(warnings).toHaveLength(1);
  const throwing = electronBadgeSetter(
    {
      setBadgeCount: () => {
        throw new Error('no dock');
      },
    },
    (m) => warnings.push(m),
  );
  expect(() => throwing(1)).not.toThrow();
  expect(warnings).toHaveLength(2);
  const fine = electronBadgeSetter({ setBadgeCount: () => true }, (m) => warnings.push(m));
  fine(5);
  expect(warnings).toHaveLength(2);
});

test("the renderer's attention count reaches the platform's badge through the bridge; signing out clears it", async () => {
  const badge = createBadgeSlot();
  const { app, call } = await openConsole(undefined, { badge });
  const seen: number[] = [];
  const unbind = badge.bind((n) => seen.push(n));
  try {
    await call('workspace:openDemo', {});
    await app.standin!.simulator.stop();
    seen.length = 0;
    expect(await call('attendance:badge', { count: 3 })).toEqual({ count: 3 });
    expect(await call('attendance:badge', { count: 3 })).toEqual({ count: 3 });
    expect(await call('attendance:badge', { count: 12_000 })).toEqual({ count: 999 });
    expect(seen).toEqual([3, 999]);
    await call('workspace:signOut', {});
    expect(seen).toEqual([3, 999, 0]);
  } finally {
    unbind();
    await app.close();
  }
});

test('only revealed documents stay in clear; every other CPF/CNPJ is masked', () => {
  expect(revealedDocuments([CPF_SHOWN, ' ', 'hello', CPF_SHOWN, '12.345.678/0001-95'])).toEqual([CPF_SHOWN, '12.345.678/0001-95']);
  const text = `CPF ${CPF_SHOWN}, outro ${CPF_HIDDEN}, empresa 12.345.678/0001-95 e de novo ${CPF_SHOWN}.`;
  const out = maskExcept(text, [CPF_SHOWN]);
  expect(out.split(CPF_SHOWN)).toHaveLength(3);
  expect(out).not.toContain(CPF_HIDDEN);
  expect(out).toContain('***.***.777-35');
  expect(out).toContain('**.***.***/****-95');
  expect(maskExcept(text, [])).not.toContain(CPF_SHOWN);
});

test('AI draft and knowledge answers leave with documents masked unless the attendant includes the ones they revealed', async () => {
  test.setTimeout(60_000);
  const sb = await startStandin({ port: 0 });
  const proxy = await startCaptureProxy(sb.baseUrl);
  const { app, call } = await openConsole();
  try {
    await call('workspace:connect', {
      baseUrl: proxy.url,
      token: sb.tokens.agent,
      userName: sb.demoAgent.userName,
      allowWeakStorage: true,
    });
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const mine = await api.list(
      '/user-session',
      [
        { key: 'status', operator: 'EQ', value: 'OPEN' },
        { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
      ],
      { direction: 'DESC', size: 1 },
    );
    const sessionId = mine[0]!.id as number;
    await api.post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: sessionId },
      message: `Meu CPF é ${CPF_SHOWN} e o da minha esposa é ${CPF_HIDDEN}.`,
      fromUser: true,
    });
    await call('attendance:openThread', { sessionId });
    const choice = { provider: 'local', model: 'local-extractive' };
    const lastNlp = () => proxy.bodiesTo('/transformersapi/1.0/nlp').at(-1) ?? '';

    // Default: masked.
    await call('attendance:aiDraft', { sessionId, choice });
    expect(lastNlp()).toContain('***.***.247-25');
    expect(lastNlp()).not.toContain(CPF_SHOWN);
    expect(lastNlp()).not.toContain(CPF_HIDDEN);
    // The choice without any revealed document sends nothing in clear either.
    await call('attendance:aiDraft', { sessionId, choice, revealDocuments: true, revealed: [] });
    expect(lastNlp()).not.toContain(CPF_SHOWN);
    // The revealed one goes in clear; the other stays masked.
    await call('attendance:aiDraft', { sessionId, choice, revealDocuments: true, revealed: [CPF_SHOWN] });
    expect(lastNlp()).toContain(CPF_SHOWN);
    expect(lastNlp()).not.toContain(CPF_HIDDEN);
    expect(lastNlp()).toContain('***.***.777-35');

    const lastQuestion = () => JSON.parse(proxy.bodiesTo('/transformersapi/1.0/questions').at(-1) ?? '{}') as { question?: string };
    const question = `Segunda via para o CPF ${CPF_SHOWN} e ${CPF_HIDDEN}?`;
    await call('attendance:kbAnswer', { question, index: 'demo_atendimento_data_pt' });
    expect(lastQuestion().question).toBe('Segunda via para o CPF ***.***.247-25 e ***.***.777-35?');
    await call('attendance:kbAnswer', { question, revealDocuments: true, revealed: [CPF_SHOWN] });
    expect(lastQuestion().question).toBe(`Segunda via para o CPF ${CPF_SHOWN} e ***.***.777-35?`);
  } finally {
    await app.close();
    await proxy.close();
    await sb.close();
  }
});

test('without a keyring, provider credentials are kept for this run only unless the user consents to weak protection', async () => {
  test.setTimeout(90_000);
  const profile = mkdtempSync(join(tmpdir(), 'console-cred-'));
  // Provider credentials are the workspace's own, in its folder's vault.
  const sealed = () =>
    new Vault(new KeyFileCipher(profile), createConfStore(join(profile, 'workspaces', 'demo'), 'vault')).get('provider:openai');
  const openaiOf = async (call: Awaited<ReturnType<typeof openConsole>>['call']) =>
    (await call('attendance:providers', {})).providers.find((p) => p.name === 'openai');
  const run = async <T>(body: (c: Awaited<ReturnType<typeof openConsole>>) => Promise<T>): Promise<T> => {
    const c = await openConsole(profile);
    try {
      if (!c.app.standin) await c.call('workspace:openDemo', {});
      await c.app.standin!.simulator.stop();
      return await body(c);
    } finally {
      await c.app.close();
    }
  };

  // No consent: this run only, said so, nothing written.
  await run(async ({ call }) => {
    expect((await call('workspace:state', {})).vault.state).toBe('weak');
    expect(await call('attendance:setCredential', { provider: 'openai', accessKey: 'ak-polish-1', secretKey: 'sk-polish-1' })).toEqual({
      credentialSet: true,
      kept: 'session',
    });
    expect(await openaiOf(call)).toMatchObject({ credentialSet: true, kept: 'session' });
  });
  expect(sealed()).toBeNull();
  await run(async ({ call }) => expect(await openaiOf(call)).toMatchObject({ credentialSet: false, kept: null }));

  // Consent: sealed with weak protection, there after a restart.
  await run(async ({ call }) => {
    expect(await call('attendance:setCredential', { provider: 'openai', token: 'tok-polish-2', allowWeakStorage: true })).toEqual({
      credentialSet: true,
      kept: 'weak',
    });
  });
  expect(sealed()).toContain('tok-polish-2');
  await run(async ({ call }) => {
    expect(await openaiOf(call)).toMatchObject({ credentialSet: true, kept: 'weak' });
    // A later save without consent removes the sealed copy: it cannot come back at the next start.
    expect(await call('attendance:setCredential', { provider: 'openai', token: 'tok-polish-3' })).toEqual({
      credentialSet: true,
      kept: 'session',
    });
  });
  expect(sealed()).toBeNull();
  await run(async ({ call }) => {
    expect(await openaiOf(call)).toMatchObject({ credentialSet: false });
    expect(await call('attendance:setCredential', { provider: 'openai', token: 'tok-polish-4', allowWeakStorage: true })).toMatchObject({
      kept: 'weak',
    });
    expect(await call('attendance:clearCredential', { provider: 'openai' })).toEqual({ credentialSet: false, kept: null });
  });
  expect(sealed()).toBeNull();
});
