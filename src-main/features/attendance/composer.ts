import type { ComposerHelp, CredentialKept, HelpPart, ProviderInfo, ThreadMessage } from '../../../src-shared/bridge/attendance';
import type { ChatSuggestion } from '../../../src-shared/schemas/index';
import { AppError, isAppError } from '../../../src-shared/errors';
import { isKnowledgeBaseName } from '../../../src-shared/schemas/ai';
import type { HandlerTable } from '../../bridge/table';
import type { NlpMessage, ProviderCredential, ServiceClient } from '../../service';
import type { FeatureContext } from '../context';
import type { NotesFeature } from '../notes';
import type { OfflineFeature } from '../offline';
import { fillTemplate } from './project';
import { templateValues } from '../../../src-shared/template';
import { record as obj, text as str } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { HsmTemplate, HsmTemplateGroup, MessageBundleGroup } from '../../../src-shared/schemas/index';
import type { QueueFeature } from './queue';
import { readSession } from './reads';
import type { Replies } from './reply';
import type { Threads } from './thread';
import { sessionGroupOf } from '../../../src-shared/concepts';
import { maskExcept, revealedDocuments } from './reveal';
import { answerPart } from '../../../src-shared/kb-answer';
import { knownBases, rememberBase } from '../kb-known';
import { oldestFirst } from '../../../src-shared/newest';
import { mediaAddressOf } from '../../service/media';
import { cannedOf, suggestionsOf, templatesOf } from './composer-views';
import { errorText } from '../../../src-shared/error-text';
import { eqNum } from '../../../src-shared/query-builder';
import { templateParameterCount } from '../../../src-shared/template';

/** The session's own reply suggestions shown (its newest), and how many are read to find them. */
const OWN_SUGGESTIONS = 10;
const OWN_SUGGESTIONS_READ = 50;

type Bundle = Read<MessageBundleGroup>;
type Hsm = Read<HsmTemplate>;

const KB_SETTING = 'knowledgeBase';
const CACHE_MS = 5 * 60_000;

const providerKey = (p: string) => `provider:${p}`;

/**
 * What the attendant chose to send in clear: nothing (the default: the client masks every
 * CPF/CNPJ), or the documents they revealed in the thread (every other one masked here).
 */
export interface Reveal {
  revealDocuments?: boolean | undefined;
  revealed?: readonly string[] | undefined;
}

/** The documents to keep in clear, or null when everything leaves masked. */
function kept(reveal: Reveal | undefined): string[] | null {
  if (reveal?.revealDocuments !== true) return null;
  const docs = revealedDocuments(reveal.revealed);
  return docs.length ? docs : null;
}

/** Turns the thread into the nlp conversation: the customer speaks as user, the attendant as assistant. */
function conversation(messages: readonly ThreadMessage[], keep: readonly string[] | null): NlpMessage[] {
  return messages
    .filter((m) => (m.text || m.caption || '').trim())
    .slice(-40)
    .map((m) => {
      const said = m.text || m.caption || '';
      return {
        role: m.fromCustomer ? 'user' : 'assistant',
        content: [{ type: 'text', text: `${m.fromCustomer ? 'Cliente' : 'Atendente'}: ${keep ? maskExcept(said, keep) : said}` }],
      };
    });
}

/**
 * Composer help: canned replies, reply suggestions, HSM templates, the AI draft and summary
 * (provider credentials stay in the vault, the renderer only learns whether they are set), and
 * knowledge-base answers.
 */
export class Composer {
  #canned: { at: number; rows: Bundle[] } | null = null;
  #templates: { at: number; rows: Hsm[] } | null = null;

  readonly #ctx: FeatureContext;
  constructor(ctx: FeatureContext) {
    this.#ctx = ctx;
  }

  #client(): ServiceClient {
    return this.#ctx.client();
  }

  /** Providers whose credential the user chose to keep for this run only (or had to). */
  #sessionOnly = new Set<string>();

  #keptOf(provider: string): CredentialKept | null {
    if (this.#credential(provider) === null) return null;
    if (this.#sessionOnly.has(provider) || this.#ctx.vault.state === 'unavailable') return 'session';
    return this.#ctx.vault.state === 'encrypted' ? 'keyring' : 'weak';
  }

  async #cannedRows(): Promise<Bundle[]> {
    if (!this.#canned || this.#ctx.clock.now() - this.#canned.at > CACHE_MS) {
      const rows = await this.#client()
        .resource('messageBundleGroup')
        .pageAll({ conditions: [], sort: true, sortColumn: 'code', direction: 'ASC', size: 500 }, { cap: 5_000 });
      this.#canned = { at: this.#ctx.clock.now(), rows };
    }
    return this.#canned.rows;
  }

  async #templateRows(): Promise<Hsm[]> {
    if (!this.#templates || this.#ctx.clock.now() - this.#templates.at > CACHE_MS) {
      const rows = await this.#client()
        .resource('hsmTemplate')
        .pageAll({ conditions: [], sort: true, sortColumn: 'id', direction: 'ASC', size: 500 }, { cap: 2_000 });
      this.#templates = { at: this.#ctx.clock.now(), rows };
    }
    return this.#templates.rows;
  }

  /**
   * Canned replies, suggestions and templates for one session. Each part stands alone: one that
   * cannot be read (an optional resource answering 404, a refused query) is named in `failed`
   * and the others are shown.
   */
  async help(sessionId: number, groupId: number | null): Promise<ComposerHelp> {
    const client = this.#client();
    const settle = async <T>(p: Promise<T>, fallback: T): Promise<{ value: T; ok: boolean }> => {
      try {
        return { value: await p, ok: true };
      } catch (e) {
        this.#ctx.log.warn('composer help part failed', { error: errorText(e) });
        return { value: fallback, ok: false };
      }
    };
    const none = { results: [] as Read<ChatSuggestion>[] };
    const [cannedPart, ownPart, generalPart, templatePart, linksPart] = await Promise.all([
      settle(this.#cannedRows(), []),
      settle(
        client.chatSuggestions({
          conditions: [eqNum('session.id', sessionId)],
          sort: true,
          sortColumn: 'id',
          direction: 'DESC',
          page: 0,
          size: OWN_SUGGESTIONS_READ,
        }),
        none,
      ),
      settle(
        client.chatSuggestions({
          conditions: [{ key: 'session', operator: 'IS_NULL' }],
          sort: true,
          sortColumn: 'id',
          direction: 'ASC',
          page: 0,
          size: 20,
        }),
        none,
      ),
      settle(this.#templateRows(), []),
      groupId === null
        ? Promise.resolve({ value: null, ok: true })
        : settle(
            client
              .resource('hsmTemplateGroup')
              .pageAll(
                {
                  conditions: [eqNum('hsmTemplateGroupId.groupConfId', groupId)],
                  sort: false,
                  size: 500,
                },
                { cap: 1_000 },
              )
              .then((rows): Array<Read<HsmTemplateGroup>> | null => rows),
            null,
          ),
    ]);
    const cannedRows = cannedPart.value;
    // The session's newest by their time, wherever the service listed them.
    const ownSuggestions = {
      results: oldestFirst(ownPart.value.results, (r) => ({ at: r.createdAt, id: r.id ?? 0 }))
        .reverse()
        .slice(0, OWN_SUGGESTIONS),
    };
    const generalSuggestions = generalPart.value;
    const templateRows = templatePart.value;
    // Without the group's template list (none, or not offered) every active template is offered.
    const links = linksPart.ok ? linksPart.value : null;
    const failed: HelpPart[] = [];
    if (!cannedPart.ok) failed.push('canned');
    if (!ownPart.ok && !generalPart.ok) failed.push('suggestions');
    if (!templatePart.ok) failed.push('templates');
    return {
      canned: cannedOf(cannedRows, groupId),
      suggestions: suggestionsOf(ownSuggestions.results, generalSuggestions.results),
      templates: templatesOf(templateRows, links),
      failed,
    };
  }

  async template(id: number): Promise<{ template: string; parameterCount: number }> {
    const row = (await this.#templateRows()).find((t) => t.id === id);
    const template = str(row?.template);
    if (!row || !template) throw new AppError({ kind: 'NotFound', message: 'That template is no longer available.' });
    return { template, parameterCount: row.parameterCount ?? templateParameterCount(template) };
  }

  // ---- providers and credentials --------------------------------------------------------

  #credential(provider: string): ProviderCredential | null {
    const raw = this.#ctx.vault.get(providerKey(provider));
    if (!raw) return null;
    try {
      const c = obj(JSON.parse(raw));
      const cred: ProviderCredential = {};
      if (str(c?.access_key)) cred.access_key = String(c?.access_key);
      if (str(c?.secret_key)) cred.secret_key = String(c?.secret_key);
      if (str(c?.token)) cred.token = String(c?.token);
      return Object.keys(cred).length ? cred : null;
    } catch {
      return null;
    }
  }

  async providers(): Promise<ProviderInfo[]> {
    const models = await this.#client().modelsByProviders({ provider: '', typeModality: 'text' });
    const by = new Map<string, ProviderInfo>();
    for (const m of models) {
      if (!m.active || m.typeModality !== 'text') continue;
      const kept = by.has(m.providerName) ? null : this.#keptOf(m.providerName);
      const p = by.get(m.providerName) ?? { name: m.providerName, credentialSet: kept !== null, kept, models: [] };
      const meta = obj(m.metadata);
      p.models.push({ id: m.id, name: m.name, reachable: meta?.reachable !== false });
      by.set(m.providerName, p);
    }
    return [...by.values()];
  }

  /**
   * Keeps a provider's credential. With the OS keyring it is sealed; without one (the weak
   * state) it is written only with the user's consent (`allowWeak`), else kept in memory for
   * this run only, and the answer says which, so the form can tell the user.
   */
  setCredential(
    provider: string,
    c: { accessKey?: string | undefined; secretKey?: string | undefined; token?: string | undefined },
    allowWeak = false,
  ): CredentialKept | null {
    const value: ProviderCredential = {};
    if (c.accessKey) value.access_key = c.accessKey;
    if (c.secretKey) value.secret_key = c.secretKey;
    if (c.token) value.token = c.token;
    for (const s of [c.accessKey, c.secretKey, c.token]) if (s) this.#ctx.registerSecret(s);
    const key = providerKey(provider);
    const json = JSON.stringify(value);
    const empty = Object.keys(value).length === 0;
    const state = this.#ctx.vault.state;
    if (empty) {
      this.#ctx.vault.remove(key);
      this.#sessionOnly.delete(provider);
    } else if (state === 'encrypted' || (state === 'weak' && allowWeak)) {
      this.#ctx.vault.put(key, json, { allowWeak: true });
      this.#sessionOnly.delete(provider);
    } else {
      // This run only: a copy sealed by an earlier consent is removed so it cannot return.
      this.#ctx.vault.remove(key);
      this.#ctx.vault.put(key, json, { persist: false });
      this.#sessionOnly.add(provider);
    }
    return this.#keptOf(provider);
  }

  async #ask(
    task: string,
    messages: readonly ThreadMessage[],
    choice: { provider: string; model: string },
    maxLen: number,
    reveal?: Reveal,
  ): Promise<string> {
    const cred = this.#credential(choice.provider);
    const keep = kept(reveal);
    const answer = await this.#client().nlp(
      {
        provider: choice.provider,
        model: choice.model,
        max_len: maxLen,
        temperature: 0.2,
        messages: [{ role: 'system', content: [{ type: 'text', text: task }] }, ...conversation(messages, keep)],
        ...(cred ? { token: [cred] } : {}),
      },
      keep ? { revealDocuments: true } : {},
    );
    const text = (answer.message ?? '').trim();
    if (!text)
      throw new AppError({ kind: 'BadResponse', message: 'The language model answered with no text. Try again or pick another model.' });
    return text;
  }

  draft(messages: readonly ThreadMessage[], choice: { provider: string; model: string }, reveal?: Reveal): Promise<string> {
    return this.#ask('Sugira uma resposta curta e cordial do atendente para a última mensagem do cliente.', messages, choice, 120, reveal);
  }

  summary(messages: readonly ThreadMessage[], choice: { provider: string; model: string }): Promise<string> {
    return this.#ask(
      'Resuma o atendimento abaixo em poucas linhas: o pedido do cliente, o que foi feito e o resultado.',
      messages,
      choice,
      160,
    );
  }

  /**
   * What an image in the thread shows, described by the service's AI for the attendant
   * (interface §4.1: an `image_url` content item). The service is given its own address of the
   * image (it holds the media; the token stays here); the caption, as text, goes masked like
   * any text, and the address goes only under the same consent as documents in text (ai.ts).
   */
  async describe(message: ThreadMessage, choice: { provider: string; model: string }): Promise<string> {
    const media = message.media;
    if (media?.kind !== 'image') throw new AppError({ kind: 'Invalid', field: 'messageId', message: 'Only an image can be described.' });
    const url = mediaAddressOf(this.#client().baseUrl, media.url);
    const cred = this.#credential(choice.provider);
    const caption = (message.caption ?? '').trim();
    const answer = await this.#client().nlp({
      provider: choice.provider,
      model: choice.model,
      max_len: 120,
      temperature: 0.2,
      messages: [
        {
          role: 'system',
          content: [{ type: 'text', text: 'Descreva a imagem para o atendente em poucas frases, só o que se vê, sem inventar detalhes.' }],
        },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url } },
            ...(caption ? [{ type: 'text', text: `Legenda do cliente: ${caption}` }] : []),
          ],
        },
      ],
      ...(cred ? { token: [cred] } : {}),
    });
    const text = (answer.message ?? '').trim();
    if (!text)
      throw new AppError({
        kind: 'BadResponse',
        message: 'The language model answered with no description. Try again or pick another model.',
      });
    return text;
  }

  // ---- knowledge base --------------------------------------------------------------------

  async knowledge(
    question: string,
    index: string | undefined,
    demo: boolean,
    reveal?: Reveal,
  ): Promise<{ index: string | null; answers: Array<{ text: string; score: number }> }> {
    if (index !== undefined) {
      if (index && !isKnowledgeBaseName(index)) {
        throw new AppError({
          kind: 'Invalid',
          field: 'index',
          message: 'A knowledge base name looks like {hostname}_{identifier}_data_pt, for example acme.com_faq_data_pt.',
        });
      }
      this.#ctx.settings.set(KB_SETTING, index);
    }
    const name = this.knowledgeBaseName(demo);
    if (!name) throw new AppError({ kind: 'Invalid', field: 'index', message: 'Give the name of the knowledge base to search first.' });
    try {
      const keep = kept(reveal);
      const answers = await this.#client().questions(
        { index: name, question: keep ? maskExcept(question, keep) : question, size: 5 },
        keep ? { revealDocuments: true } : {},
      );
      rememberBase(this.#ctx.settings, name);
      // The attendant inserts what the customer should read: the answer, not the FAQ's question.
      return { index: name, answers: answers.map((a) => ({ text: answerPart(a.text), score: a.score })) };
    } catch (e) {
      if (isAppError(e) && e.kind === 'NotFound') {
        throw new AppError({ kind: 'NotFound', message: `The knowledge base "${name}" was not found (or is still being indexed).` });
      }
      throw e;
    }
  }

  knowledgeBaseName(demo: boolean): string | null {
    return knownBases(this.#ctx.settings, demo).last;
  }
}

type ComposerChannel =
  | 'attendance:send'
  | 'attendance:sendTemplate'
  | 'attendance:help'
  | 'attendance:providers'
  | 'attendance:setCredential'
  | 'attendance:clearCredential'
  | 'attendance:aiDraft'
  | 'attendance:describeImage'
  | 'attendance:kbAnswer'
  | 'attendance:kbBases';

export interface ComposerDeps {
  composer: Composer;
  replies: Replies;
  threads: Threads;
  queue: QueueFeature;
  notes: NotesFeature;
  offline: OfflineFeature;
}

/** The composer: replies and templates sent, its help, the AI draft and knowledge-base answers, provider credentials. */
export function composerHandlers(ctx: FeatureContext, d: ComposerDeps): Pick<HandlerTable, ComposerChannel> {
  const { composer, replies, threads, queue, notes, offline } = d;
  return {
    'attendance:send': async ({ sessionId, text, clientId }) => {
      const msg = await offline.monitor.watch(replies.send(sessionId, text, clientId, 'text'));
      // The reply answers the customer: their wait stops on the row at once.
      queue.conversation([msg]);
      // The saved draft goes only if it is this reply (a failed one is kept there until it is
      // sent); a newer reply typed meanwhile stays.
      if (notes.drafts.get(sessionId, 'reply').trim() === text.trim()) notes.drafts.set(sessionId, 'reply', '');
      return msg;
    },

    'attendance:sendTemplate': async ({ sessionId, templateId, params, clientId }) => {
      const t = await composer.template(templateId);
      const filled = templateValues(t.parameterCount, params);
      if (!filled) {
        throw new AppError({
          kind: 'Invalid',
          field: 'params',
          message: `This template needs ${t.parameterCount} values; fill every one.`,
        });
      }
      const msg = await replies.send(sessionId, fillTemplate(t.template, filled), clientId, 'template');
      queue.conversation([msg]);
      return msg;
    },

    'attendance:help': async ({ sessionId }) => {
      const groupId = queue.item(sessionId)?.groupId ?? sessionGroupOf(await readSession(ctx.client(), sessionId))?.id ?? null;
      return composer.help(sessionId, groupId);
    },
    'attendance:providers': async () => ({ providers: await composer.providers() }),
    'attendance:setCredential': async ({ provider, accessKey, secretKey, token, allowWeakStorage }) => {
      if (!accessKey && !secretKey && !token)
        throw new AppError({ kind: 'Invalid', message: 'Give at least one of the access key, secret key or token.' });
      const kept = composer.setCredential(provider, { accessKey, secretKey, token }, allowWeakStorage);
      return { credentialSet: kept !== null, kept };
    },
    'attendance:clearCredential': async ({ provider }) => {
      const kept = composer.setCredential(provider, {});
      return { credentialSet: kept !== null, kept };
    },
    'attendance:aiDraft': async ({ sessionId, choice, revealDocuments, revealed }) => ({
      text: await composer.draft(await threads.forAi(sessionId), choice, { revealDocuments, revealed }),
    }),
    'attendance:describeImage': async ({ sessionId, messageId, choice }) => {
      const message = (await threads.forAi(sessionId)).find((m) => m.id === messageId);
      if (!message) throw new AppError({ kind: 'NotFound', message: 'That message is not in the open conversation any more.' });
      return { text: await composer.describe(message, choice) };
    },
    'attendance:kbAnswer': async ({ question, index, revealDocuments, revealed }) =>
      composer.knowledge(question, index, ctx.isDemo(), { revealDocuments, revealed }),
    'attendance:kbBases': async () => knownBases(ctx.settings, ctx.isDemo()),
  };
}
