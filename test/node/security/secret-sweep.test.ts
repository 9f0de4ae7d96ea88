import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CHANNEL_NAMES, channels, events, IPC_INVOKE, WEB_EVENTS_PATH, type Channel } from '../../../src-shared/bridge';
import { APP_ORIGIN } from '../../../src-shared/ipc';
import { RESOURCES, type ResourceKey } from '../../../src-shared/paths';
import { HIDDEN, isSecretField, redactJsonText, redactSecrets } from '../../../src-shared/secret-fields';
import { registerIpcBridge, type IpcEventLike } from '../../../src-main/bridge/electron';
import { startHost, type Host } from '../../../src-main/host/start-host';
import { startStandin, type Standin } from '../../../src-standin/index';
import { MEDIA, MEDIA_PATH } from '../../../src-standin/media';
import { freshProfile, RENDERER_DIR, webBridge } from '../../support/host';
import { serviceApi, type Rec } from '../../support/web';
import { speechWav } from '../../support/voice-audio';
import { deliverSigned } from '../../support/webhooks';
import { startCaptureProxy } from '../../support/capture-proxy';

/**
 * Secrets never leave the main process, whatever the service sends: every bridge channel is
 * driven, through both transports (Electron IPC and the web host), against a service whose
 * every answer carries secrets: the stand-in's own (users' access keys in clear for an admin,
 * the workspace's own token among them; agents' tokens and attendance passwords; a cognition's
 * key and password; a chat configuration's token), and secret fields a proxy plants into every
 * object of every answer, at every depth. Every answer and event is searched for them.
 */

/** What the proxy plants into every object the service answers with. */
const PLANTED = {
  apiToken: 'planted-api-token-7f3a9c',
  vendor: { clientSecret: 'planted-client-secret-2b8e1d', keys: [{ private_key: 'planted-private-key-9d4c0a' }] },
  signingKey: 'planted-signing-key-5e6f7a',
};
const PLANTED_VALUES = [
  'planted-api-token-7f3a9c',
  'planted-client-secret-2b8e1d',
  'planted-private-key-9d4c0a',
  'planted-signing-key-5e6f7a',
];
const STANDIN_SECRETS = {
  appKey: 'cognition-app-key-c0ffee',
  cognitionPassword: 'cognition-password-beef42',
  chatToken: 'chat-web-conf-token-d00d11',
  agentToken: 'agent-token-a9a9a9',
  socialToken: 'social-token-b8b8b8',
  passwordAttendance: 'attendance-password-c7c7c7',
};

function plant(v: unknown, depth = 0): unknown {
  if (depth > 40 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => plant(x, depth + 1));
  const out: Rec = {};
  for (const [k, x] of Object.entries(v)) out[k] = plant(x, depth + 1);
  return { ...out, ...PLANTED };
}

/** What the proxy answers instead of the stand-in: its JSON with the planted secrets in every object. */
function planted(body: Buffer, contentType: string): Buffer {
  if (!contentType.includes('json') || !body.length) return body;
  try {
    return Buffer.from(JSON.stringify(plant(JSON.parse(body.toString('utf8')))));
  } catch {
    return body;
  }
}

/** The Electron transport, as the main process registers it, with a fake ipcMain and window. */
function ipcTransport(host: Host, pushed: string[]) {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>>();
  const stop = registerIpcBridge({
    ipcMain: { handle: (c, l) => void handlers.set(c, l), removeHandler: (c) => void handlers.delete(c) },
    route: host.app.route,
    events: host.app.events,
    appOrigin: APP_ORIGIN,
    target: () => ({ send: (channel, ...args) => void pushed.push(`${channel} ${JSON.stringify(args)}`), isDestroyed: () => false }),
  });
  const frame = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };
  return {
    call: (channel: string, input: unknown) => handlers.get(IPC_INVOKE)!(frame, channel, input, null),
    stop,
  };
}

/** The web host's event stream, read as the page reads it. */
async function webEvents(host: Host, cookie: string, into: string[]): Promise<() => void> {
  const abort = new AbortController();
  const res = await fetch(`${host.origin}${WEB_EVENTS_PATH}`, { headers: { cookie }, signal: abort.signal });
  const reader = res.body!.getReader();
  void (async () => {
    const text = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        into.push(text.decode(value));
      }
    } catch {
      // Closed at the end of the test.
    }
  })();
  return () => abort.abort();
}

interface Scene {
  sessionId: number;
  closeId: number;
  templateParams: number;
  waitingId: number;
  otherSessionId: number;
  groupId: number;
  templateId: number;
  reasonId: number;
  classification: number[];
  noteId: string;
  otherNoteId: string;
  audio: string;
  file: string;
  demoAgent: string;
  image: { sessionId: number; messageId: number };
  /** A small PDF a file send carries. */
  pdf: Buffer;
}

/** The steps of a file send after its begin, each channel driven with the ones before it. */
const FILE_STEPS = ['attendance:fileChunk', 'attendance:fileSend', 'attendance:fileCancel'] as const;

/** The knowledge base the stand-in is seeded with. */
const KB = 'demo_atendimento_data_pt';

/**
 * Channels whose swept answer is a refusal here, and why: the answer still crosses the bridge
 * and is swept like the others.
 */
const REFUSED: Partial<Record<Channel, string>> = {
  'webhooks:startTunnel': 'no tunnel is chosen: starting one is refused with the reason',
};

/**
 * An input for every channel (a channel added without one fails the test below). Most are what
 * the renderer sends; a few ask for something that cannot be done, and their refusal is the
 * answer swept.
 */
const INPUTS: Record<Channel, (s: Scene) => unknown> = {
  'workspace:state': () => ({}),
  'workspace:openDemo': () => ({}),
  'workspace:connect': () => null, // made first, apart (it carries the token the user typed)
  'workspace:signOut': () => null, // made last, apart
  'workspace:focus': () => null, // filled with the workspace's id
  'workspace:rename': () => null, // filled with the workspace's id
  'workspace:needsMe': () => ({}),
  'workspace:viewShown': () => ({}),
  'workspace:people': () => ({ search: 'a' }),
  'workspace:setUser': (s) => ({ userName: s.demoAgent }),
  'attendance:queue': () => ({ fresh: true }),
  'attendance:directory': () => ({}),
  'attendance:accept': (s) => ({ sessionId: s.waitingId }),
  'attendance:seen': (s) => ({ sessionId: s.sessionId }),
  'attendance:snooze': (s) => ({ sessionId: s.sessionId, until: null }),
  'attendance:wake': (s) => ({ sessionId: s.sessionId }),
  'attendance:transfer': (s) => ({ sessionId: s.otherSessionId, groupId: s.groupId }),
  'attendance:openThread': (s) => ({ sessionId: s.sessionId }),
  'attendance:olderMessages': (s) => ({ sessionId: s.sessionId, page: 1 }),
  'attendance:closeThread': (s) => ({ sessionId: s.sessionId }),
  'attendance:media': () => ({ url: `${MEDIA_PATH}${MEDIA[0]!.name}` }),
  'attendance:openLink': () => ({ url: 'https://example.com/pedido' }),
  'attendance:fileRules': (s) => ({ sessionId: s.sessionId }),
  'attendance:fileBegin': (s) => ({ sessionId: s.sessionId, name: 'boleto.pdf', contentType: 'application/pdf', size: s.pdf.length }),
  // These three need a file begun through the same transport: driven apart in the loop (FILE_STEPS).
  'attendance:fileChunk': () => null,
  'attendance:fileSend': () => null,
  'attendance:fileCancel': () => null,
  'attendance:send': (s) => ({ sessionId: s.sessionId, text: 'Um momento, por favor.', clientId: `sweep-${Math.random()}` }),
  'attendance:sendTemplate': (s) => ({
    sessionId: s.sessionId,
    templateId: s.templateId,
    params: Array.from({ length: s.templateParams }, (_, i) => `valor ${i + 1}`),
    clientId: `t-${Math.random()}`,
  }),
  'attendance:help': (s) => ({ sessionId: s.sessionId }),
  'history:customer': (s) => ({ sessionId: s.sessionId }),
  'history:session': (s) => ({ sessionId: s.closeId }),
  'history:search': () => ({ query: 'boleto' }),
  'attendance:providers': () => ({}),
  'attendance:setCredential': () => ({ provider: 'acme', accessKey: 'typed-provider-key-1', secretKey: 'typed-provider-secret-1' }),
  'attendance:clearCredential': () => ({ provider: 'acme' }),
  'attendance:aiDraft': (s) => ({ sessionId: s.sessionId, choice: { provider: 'local', model: 'local-extractive' } }),
  'attendance:describeImage': (s) => ({ ...s.image, choice: { provider: 'local', model: 'local-extractive' } }),
  'attendance:kbAnswer': () => ({ question: 'Como troco a senha?', index: KB }),
  'attendance:kbBases': () => ({}),
  'attendance:classificationTree': (s) => ({ sessionId: s.sessionId }),
  'attendance:summary': (s) => ({ sessionId: s.sessionId }),
  'attendance:close': (s) => ({ sessionId: s.closeId, classification: s.classification, comment: 'Resolvido.' }),
  'attendance:pause': (s) => ({ reasonId: s.reasonId }),
  'attendance:resume': () => ({}),
  'attendance:badge': () => ({ count: 2 }),
  'attendance:queueWidth': () => ({ width: 420 }),
  'live:status': () => ({}),
  'live:setRunning': () => ({ running: true }),
  'live:resync': () => ({}),
  'live:source': () => ({}),
  // The source the workspace already has: switching to it restarts the listener, nothing else.
  'live:setSource': () => ({ source: { kind: 'listener' } }),
  'live:serviceTime': () => ({}),
  'live:setServiceZone': () => ({ zone: 'America/Sao_Paulo' }),
  'notes:list': (s) => ({ sessionId: s.sessionId }),
  'notes:add': (s) => ({ sessionId: s.sessionId, text: 'Cliente pediu retorno.' }),
  'notes:retry': (s) => ({ id: s.noteId }),
  'notes:discard': (s) => ({ id: s.otherNoteId }),
  'notes:status': () => ({}),
  'notes:draft': (s) => ({ sessionId: s.sessionId }),
  'notes:setDraft': (s) => ({ sessionId: s.sessionId, kind: 'reply', text: 'Rascunho' }),
  'notes:mentions': () => ({}),
  'notes:mentionSeen': (s) => ({ sessionId: s.sessionId }),
  'offline:status': () => ({}),
  'offline:retry': () => ({}),
  'palette:keys': () => ({}),
  'palette:setKeys': () => ({ bindings: { 'queue.next': 'Mod+Shift+N' } }),
  'supervisor:rules': () => ({}),
  'supervisor:ticket': () => ({ idOrKey: 'SUP-4711' }),
  'supervisor:recentTickets': () => ({}),
  'supervisor:ticketShortcut': () => ({}),
  'supervisor:setTicketShortcut': () => ({ accelerator: 'CommandOrControl+Shift+T' }),
  'supervisor:nps': () => ({ surveyName: 'nps-atendimento' }),
  'supervisor:report': () => ({ filter: {} }),
  'supervisor:reportAll': () => ({ filter: {} }),
  'supervisor:figures': () => ({ from: new Date(Date.now() - 60 * 86_400_000).toISOString(), to: new Date().toISOString() }),
  'supervisor:surveyAnswers': () => ({ from: new Date(Date.now() - 60 * 86_400_000).toISOString(), to: new Date().toISOString() }),
  'supervisor:npsBreakdown': () => ({
    surveyName: 'nps-atendimento',
    from: new Date(Date.now() - 60 * 86_400_000).toISOString(),
    to: new Date().toISOString(),
    agents: ['Ana Souza'],
    groups: [{ name: 'Financeiro', id: 2 }],
  }),
  'supervisor:groups': () => ({}),
  'supervisor:explore': () => null, // every listable resource, below
  'supervisor:save': () => ({ resource: 'user', record: { id: 1, name: 'Admin', accessKey: HIDDEN } }),
  'supervisor:kbList': () => ({}),
  'supervisor:kbUpload': () => ({ url: 'http://127.0.0.1:9/faq.csv', name: 'localhost_faq_data_pt' }),
  'supervisor:kbUploadFile': (s) => ({ fileName: 'faq.csv', contentBase64: s.file, name: 'localhost_faqfile_data_pt' }),
  'supervisor:kbAsk': () => ({ name: KB, question: 'entrega' }),
  'voice:state': () => ({}),
  'voice:setEnabled': () => ({ enabled: true }),
  'voice:setLanguage': () => ({ language: 'en-US' }),
  'voice:languages': () => ({}),
  'voice:transcribe': (s) => ({ seq: 0, audio: s.audio }),
  'voice:speak': () => ({ text: 'Hello there' }),
  'voice:calls': (s) => ({ sessionId: s.sessionId }),
  'webhooks:status': () => ({}),
  'webhooks:setPort': () => ({ port: 0 }),
  'webhooks:setSigning': () => ({ enabled: true }),
  'webhooks:newSecret': () => ({}),
  'webhooks:setTunnel': () => ({ provider: 'none', command: '' }),
  'webhooks:startTunnel': () => ({}),
  'webhooks:stopTunnel': () => ({}),
  'webhooks:log': () => ({ limit: 50 }),
  'webhooks:entry': () => null, // filled with a logged event's id
};

test('every channel of the bridge, through both transports, against a service full of secrets: none comes out, each shows as hidden', async () => {
  test.setTimeout(240_000);
  const sb: Standin = await startStandin({ port: 0, sessions: 60 });
  const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
  // Secrets of the stand-in's own records, as an administrator can read them.
  await admin.post('/chatapi/1.0/api/v2/cognition/save', {
    name: 'Motor externo',
    appId: 'app-1',
    appKey: STANDIN_SECRETS.appKey,
    password: STANDIN_SECRETS.cognitionPassword,
    userName: 'integracao',
    endPoint: 'https://ai.example',
    type: 'LLM',
    version: '1',
  });
  await admin.post('/chatapi/1.0/api/v2/chat-web-conf/save', {
    configuration: 'site',
    token: STANDIN_SECRETS.chatToken,
    initialMessage: 'Olá',
  });
  const [agent] = await admin.list('/agent', [{ key: 'user.userName', operator: 'EQ', value: sb.demoAgent.userName }]);
  await admin.post('/chatapi/1.0/api/v2/agent/save', {
    id: agent!.id,
    agentToken: STANDIN_SECRETS.agentToken,
    socialToken: STANDIN_SECRETS.socialToken,
    passwordAttendance: STANDIN_SECRETS.passwordAttendance,
  });
  const users = await admin.listAll('/users');
  const accessKeys = users.map((u) => u.accessKey).filter((k): k is string => typeof k === 'string' && k.length > 8);
  expect(accessKeys).toContain(sb.tokens.admin);

  const proxy = await startCaptureProxy(sb.baseUrl, { rewrite: planted });
  const host = await startHost({ profileDir: freshProfile(), rendererDir: RENDERER_DIR, port: 0, locale: 'en-US' });
  const traffic: string[] = [];
  const pushed: string[] = [];
  const ipc = ipcTransport(host, pushed);
  const web = await webBridge(host);
  const cookie = (await fetch(host.url, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
  const stopEvents = await webEvents(host, cookie, pushed);
  /** The answer of one call through one transport, kept for the sweep. */
  const through = async (transport: 'ipc' | 'web', channel: string, input: unknown): Promise<{ result?: unknown; error?: unknown }> => {
    const answer =
      transport === 'ipc'
        ? ((await ipc.call(channel, input)) as { result?: unknown })
        : ((await web(channel, input)).body as { result?: unknown });
    traffic.push(`${transport} ${channel} ${JSON.stringify(answer)}`);
    return answer;
  };
  const both = async (channel: string, input: unknown) => [await through('ipc', channel, input), await through('web', channel, input)];
  const answered = new Map<string, number>();
  const count = (channel: string, answers: Array<{ result?: unknown }>) =>
    answered.set(channel, (answered.get(channel) ?? 0) + answers.filter((a) => 'result' in a).length);

  try {
    // The workspace: the administrator's token, working as the demo attendant.
    const connected = await web('workspace:connect', {
      baseUrl: proxy.url,
      token: sb.tokens.admin,
      userName: sb.demoAgent.userName,
      allowWeakStorage: true,
    });
    expect(connected.body).toMatchObject({ result: { signedIn: true } });
    count('workspace:connect', [connected.body as { result?: unknown }]);
    const wsId = (connected.body as { result: { active: string } }).result.active;

    // The scene, read from the service.
    const queue = (await through('web', 'attendance:queue', {})) as {
      result: { items: Array<{ id: number; agentUserName: string | null; bucket?: string }> };
    };
    const mine = queue.result.items.filter((i) => i.agentUserName === sb.demoAgent.userName);
    const waiting = queue.result.items.find((i) => i.agentUserName === null)!;
    const directory = (await through('web', 'attendance:directory', {})) as {
      result: { groups: Array<{ id: number }>; pauseReasons: Array<{ id: number }> };
    };
    const [template] = await admin.list('/hsm-template');
    const [image] = await admin.list('/messages', [{ key: 'contentType', operator: 'EQ', value: 'image' }]);
    type Node = { id: number; children: Node[] };
    const tree = (await through('web', 'attendance:classificationTree', { sessionId: mine[2]!.id })) as { result: { roots: Node[] } };
    const path: number[] = [];
    for (let node: Node | undefined = tree.result.roots[0]; node; node = node.children[0]) path.push(node.id);
    // A note on a session the service does not have: refused, so it can be sent again or discarded.
    const refusedNote = async () =>
      ((await through('web', 'notes:add', { sessionId: 987_654, text: 'Nota recusada.' })) as { result: { id: string } }).result.id;
    const scene: Scene = {
      sessionId: mine[0]!.id,
      otherSessionId: mine[1]!.id,
      closeId: mine[2]!.id,
      templateParams: Number(template!.parameterCount ?? 0),
      waitingId: waiting.id,
      groupId: directory.result.groups[0]!.id,
      templateId: template!.id as number,
      reasonId: directory.result.pauseReasons[0]!.id,
      classification: path.length ? path : [1],
      noteId: await refusedNote(),
      otherNoteId: await refusedNote(),
      audio: readFileSync(speechWav('hello').file).toString('base64'),
      file: Buffer.from('pergunta;resposta\nEntregam sábado?;Sim\n').toString('base64'),
      demoAgent: sb.demoAgent.userName,
      image: { sessionId: (image!.session as { id: number }).id, messageId: image!.id as number },
      pdf: Buffer.from('%PDF-1.4\n% sweep\n%%EOF\n'),
    };

    // A delivery carrying secrets, for the event log's channels.
    const status = (await through('web', 'webhooks:newSecret', {})) as { result: { newSecret: string; status: { localUrl: string } } };
    const delivered = await deliverSigned(status.result.status.localUrl, status.result.newSecret, {
      id: 'evt-sweep-1',
      group: 'sessions',
      type: 'session.assigned',
      occurredAt: new Date().toISOString(),
      data: {
        sessionId: scene.sessionId,
        session: { id: scene.sessionId, agent: { userName: 'x', accessKey: sb.tokens.admin } },
        ...PLANTED,
      },
    });
    expect(delivered.status).toBe(200);

    for (const channel of CHANNEL_NAMES) {
      if (channel === 'workspace:connect' || channel === 'workspace:signOut') continue;
      if (channel === 'supervisor:explore') {
        for (const resource of Object.keys(RESOURCES) as ResourceKey[]) {
          if (RESOURCES[resource].list === null) continue;
          count(channel, await both(channel, { resource, conditions: [], size: 50 }));
        }
        continue;
      }
      if ((FILE_STEPS as readonly string[]).includes(channel)) {
        const answers: Array<{ result?: unknown }> = [];
        for (const transport of ['ipc', 'web'] as const) {
          const begun = (await through(transport, 'attendance:fileBegin', INPUTS['attendance:fileBegin'](scene))) as {
            result: { uploadId: string };
          };
          const uploadId = begun.result.uploadId;
          if (channel === 'attendance:fileCancel') {
            answers.push(await through(transport, channel, { uploadId }));
            continue;
          }
          const chunk = await through(transport, 'attendance:fileChunk', { uploadId, offset: 0, data: scene.pdf.toString('base64') });
          answers.push(
            channel === 'attendance:fileChunk'
              ? chunk
              : await through(transport, channel, { uploadId, caption: 'Segue o boleto', clientId: `sweep-${transport}` }),
          );
        }
        count(channel, answers);
        continue;
      }
      const input =
        channel === 'workspace:focus'
          ? { id: wsId }
          : channel === 'workspace:rename'
            ? { id: wsId, name: 'Sweep' }
            : channel === 'webhooks:entry'
              ? { id: 'evt-sweep-1' }
              : INPUTS[channel](scene);
      count(channel, await both(channel, input));
    }
    count('workspace:signOut', await both('workspace:signOut', {}));
  } finally {
    stopEvents();
    ipc.stop();
    await host.close();
    await proxy.close();
    await sb.close();
  }

  // Every channel was driven, and answered with a result through at least one transport (a
  // refusal alone would prove nothing).
  const silent = CHANNEL_NAMES.filter((c) => !answered.get(c) && !REFUSED[c]);
  // (And the refusals listed are still refusals: the list does not outlive its reasons.)
  expect(CHANNEL_NAMES.filter((c) => REFUSED[c] && answered.get(c))).toEqual([]);
  expect(
    silent,
    `channels that never answered with a result:\n${traffic
      .filter((t) => silent.some((c) => t.includes(` ${c} `)))
      .join('\n')
      .slice(0, 4000)}`,
  ).toEqual([]);

  // Nothing secret anywhere: answers and events, both transports.
  const secrets = [...new Set([sb.tokens.admin, ...accessKeys, ...Object.values(STANDIN_SECRETS), ...PLANTED_VALUES])];
  const all = [...traffic, ...pushed].join('\n');
  for (const s of secrets) expect(all.includes(s), `a secret crossed the bridge: ${s.slice(0, 6)}…`).toBe(false);
  // And the explorer says where they were: the users' access keys, the cognition's key, the planted ones.
  const userList = traffic.find((t) => t.startsWith('web supervisor:explore') && t.includes('"accessKey"'))!;
  expect(userList).toContain(`"accessKey":"${HIDDEN}"`);
  expect(userList).toContain(`"apiToken":"${HIDDEN}"`);
  expect(userList).toContain(`"clientSecret":"${HIDDEN}"`);
  expect(traffic.find((t) => t.includes('"appKey"'))).toContain(`"appKey":"${HIDDEN}"`);
  expect(traffic.find((t) => t.includes('"passwordAttendance"'))).toContain(`"passwordAttendance":"${HIDDEN}"`);
  // The event log shows the delivery, its secrets hidden too.
  expect(traffic.find((t) => t.startsWith('web webhooks:entry'))).toContain(`\\"accessKey\\":\\"${HIDDEN}\\"`);
});

test('the rule: names of secrets in any spelling are hidden at any depth; flags, empty values and ordinary keys pass; what a channel reveals on purpose passes', () => {
  for (const name of [
    'accessKey',
    'access_key',
    'agentToken',
    'socialToken',
    'passwordAttendance',
    'password',
    'appKey',
    'secret_key',
    'token',
    'clientSecret',
    'Authorization',
    'set-cookie',
    'API_KEY',
    'credentials',
  ])
    expect(isSecretField(name), name).toBe(true);
  for (const name of ['key', 'idOrKey', 'keyBindings', 'appId', 'userName', 'loginAttendance', 'Author', 'monkey', 'tokenizer'])
    expect(isSecretField(name), name).toBe(false);

  const record = {
    id: 1,
    tokenRefused: true,
    accessKey: '',
    user: { password: null, agent: { agentToken: 'x-1', deep: [[{ secret: 42 }]] } },
  };
  expect(redactSecrets(record)).toEqual({
    id: 1,
    tokenRefused: true,
    accessKey: '',
    user: { password: null, agent: { agentToken: HIDDEN, deep: [[{ secret: HIDDEN }]] } },
  });
  // The input is not touched; parts without secrets are shared, not copied.
  expect(record.user.agent.agentToken).toBe('x-1');
  const plain = { a: [{ b: 1 }], c: { d: 'e' } };
  expect(redactSecrets(plain)).toBe(plain);
  // A record reached twice is hidden in both places; a revealed top-level field passes.
  const shared = { password: 'p' };
  expect(redactSecrets({ a: shared, b: [shared] })).toEqual({ a: { password: HIDDEN }, b: [{ password: HIDDEN }] });
  expect(redactSecrets({ newSecret: 's', inner: { newSecret: 's' } }, new Set(['newSecret']))).toEqual({
    newSecret: 's',
    inner: { newSecret: HIDDEN },
  });
  // Nesting far deeper than any stack.
  let deep: unknown = { token: 't' };
  for (let i = 0; i < 200_000; i++) deep = { next: deep };
  let out = redactSecrets(deep) as Rec;
  for (let i = 0; i < 200_000; i++) out = out.next as Rec;
  expect(out).toEqual({ token: HIDDEN });
  // Webhook bodies, whole or cut.
  expect(redactJsonText('{"a":{"password":"p"},"b":1}')).toBe(`{"a":{"password":"${HIDDEN}"},"b":1}`);
  expect(redactJsonText('{"b": 1}')).toBe('{"b": 1}');
  expect(redactJsonText('{"user":{"accessKey": "sbx_ab')).toBe(`{"user":{"accessKey": "${HIDDEN}"`);
});

test('a typed answer never loses a field to the rule: every output and event field named like a secret is a flag, or revealed by its channel on purpose', () => {
  const offenders: string[] = [];
  const walk = (s: unknown, where: string, top: boolean, reveals: readonly string[], seen: Set<unknown>): void => {
    const def = (s as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
    if (!def || seen.has(s)) return;
    seen.add(s);
    const inner = (x: unknown, stillTop = false): void => walk(x, where, stillTop, reveals, seen);
    switch (def.type) {
      case 'object':
        for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
          const flag = v instanceof z.ZodBoolean || (v as { unwrap?: () => unknown }).unwrap?.() instanceof z.ZodBoolean;
          if (isSecretField(k) && !flag && !(top && reveals.includes(k))) offenders.push(`${where}: ${k}`);
          inner(v);
        }
        return;
      case 'array':
        return inner(def.element);
      case 'optional':
      case 'nullable':
      case 'default':
      case 'readonly':
      case 'catch':
        return inner(def.innerType, top);
      case 'union':
        return (def.options as unknown[]).forEach((o) => inner(o, top));
      case 'record':
        return inner(def.valueType);
      case 'pipe':
        return inner(def.out, top);
      case 'lazy':
        return inner((def.getter as () => unknown)());
    }
  };
  for (const c of CHANNEL_NAMES) {
    const spec = channels[c];
    walk(spec.output, c, true, 'reveals' in spec ? spec.reveals : [], new Set());
  }
  for (const [name, schema] of Object.entries(events)) walk(schema, name, true, [], new Set());
  expect(offenders).toEqual([]);
  // The one deliberate exception is there to be found.
  expect(CHANNEL_NAMES.filter((c) => 'reveals' in channels[c])).toEqual(['webhooks:setSigning', 'webhooks:newSecret']);
});
