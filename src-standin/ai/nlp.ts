import { z } from 'zod';
import { recognizeEntities } from './ner';
import { countTokens, looksEnglish, sentences, terms, truncateWords } from './text';
import { VectorIndex } from './vectors';
import { answerPart } from '../../src-shared/kb-answer';

/**
 * The `local` language provider: no model weights, honest about it. Two tasks:
 *  - summary, when the instructions ask to summarise ("resuma", "resumo", "summarize"...):
 *    extractive, the transcript's most central sentences in their original order;
 *  - reply draft otherwise: an answer to the customer's last message taken from the knowledge
 *    bases and the canned texts.
 * Tokens are whitespace-separated words: `max_len` caps the words of `message`, and
 * `used_tokens` counts the words read plus the words written. Temperature is accepted and
 * ignored: the provider is deterministic.
 */

const ContentItemSchema = z
  .object({ type: z.string(), text: z.string().optional(), image_url: z.object({ url: z.string() }).loose().optional() })
  .loose();

export const NlpRequestSchema = z
  .object({
    messages: z
      .array(z.object({ role: z.string(), content: z.union([z.string(), z.array(ContentItemSchema)]) }).loose())
      .min(1, 'at least one message is needed'),
    max_len: z.number().int().positive().max(100_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    provider: z.string().optional(),
    token: z
      .array(z.object({ access_key: z.string().optional(), secret_key: z.string().optional(), token: z.string().optional() }).loose())
      .optional(),
    model: z.string().optional(),
  })
  .loose();
export type NlpRequest = z.infer<typeof NlpRequestSchema>;

export const DEFAULT_MAX_LEN = 120;

export const CANNOT_SEE_IMAGES_PT = 'O provedor local não enxerga imagens';
export const CANNOT_SEE_IMAGES_EN = 'The local provider cannot see images';

interface Turn {
  role: string;
  text: string;
  images: string[];
}

function turnsOf(req: NlpRequest): Turn[] {
  return req.messages.map((m) => {
    if (typeof m.content === 'string') return { role: m.role.toLowerCase(), text: m.content, images: [] };
    const texts: string[] = [];
    const images: string[] = [];
    for (const item of m.content) {
      if (item.image_url?.url || item.type === 'image_url') images.push(item.image_url?.url ?? '(no URL)');
      else if (typeof item.text === 'string') texts.push(item.text);
    }
    return { role: m.role.toLowerCase(), text: texts.join('\n'), images };
  });
}

const SUMMARY_ASK = /\b(resum|sumari[sz]|summar|sintetiz|tl;?dr|recap)/iu;
const DESCRIBE_ASK =
  /\b(descrev|descri[çc]|describe|what(?:'s| is) (?:in|on) (?:the|this) (?:image|picture|photo)|o que (?:há|tem|aparece) n[ae])/iu;
/** An instruction line opens with a request to the assistant ("Resuma o atendimento abaixo:"). */
const INSTRUCTION =
  /^\s*(?:por favor,?\s*|please,?\s*)?(?:resum|fa[çc]a um resumo|gere um resumo|crie um resumo|summari[sz]e|write a summary|give me a summary|sintetiz|descrev|describe|sugira|suggest|draft|escreva uma resposta|responda)/iu;

/** Summary when a system message asks for one, or an instruction line of a user message does. */
function asksForSummary(turns: Turn[]): boolean {
  return turns.some((t) =>
    t.role === 'system'
      ? SUMMARY_ASK.test(t.text)
      : t.text.split(/\n+/).some((l) => INSTRUCTION.test(l) && SUMMARY_ASK.test(l) && !SPEAKER_LINE.test(l)),
  );
}

/** A line "Cliente: texto" names its speaker; customers and agents are told apart by these words. */
const SPEAKER = /^\s*([\p{L} .'-]{2,40}?)\s*:\s+(.+)$/u;
const SPEAKER_LINE = /^\s*(cliente|customer|client|usu[aá]rio|user|atendente|agente|agent|operador|assistente|assistant)\s*:/iu;
const CUSTOMER_NAMES = /^(cliente|customer|client|usu[aá]rio|user|consumidor|contato|contact)$/iu;
const AGENT_NAMES = /^(atendente|agente|agent|operador|operator|assistente|assistant|suporte|support|bot)$/iu;

interface Line {
  speaker: string;
  text: string;
}

/** The conversation as speaker-labelled lines, leaving out instruction lines. */
function transcript(turns: Turn[]): Line[] {
  const lines: Line[] = [];
  for (const t of turns) {
    for (const raw of t.text.split(/\n+/)) {
      const line = raw.trim();
      if (!line) continue;
      const labelled = SPEAKER.exec(line);
      if (labelled?.[1] && labelled[2] && !/^(https?|p|r)$/i.test(labelled[1])) {
        lines.push({ speaker: labelled[1].trim(), text: labelled[2].trim() });
        continue;
      }
      // Instructions (system prompts, "Resuma o atendimento abaixo:") are not part of the conversation.
      if (t.role === 'system' || (INSTRUCTION.test(line) && line.length < 240)) continue;
      lines.push({ speaker: t.role === 'assistant' ? 'Atendente' : t.role === 'user' ? 'Cliente' : t.role, text: line });
    }
  }
  return lines;
}

const RESOLUTION =
  /\b(resolv|reembols|estorn|protocolo|cancelad|enviad|troca|prazo|agendad|liberad|solved|refund|cancel|shipped|ticket|chamado)/iu;
const SMALL_TALK =
  /^(ol[aá]|oi|bom dia|boa tarde|boa noite|obrigad[oa]|de nada|tchau|hello|hi|thanks?|thank you|ok|certo|perfeito)\b[\s!.,]*$/iu;

/** Extractive summary: sentences scored by how central their terms are, plus facts and outcomes. */
export function summarise(lines: Line[], maxWords: number, english: boolean): string {
  const units: Array<{ speaker: string; text: string; order: number; terms: string[] }> = [];
  for (const l of lines)
    for (const s of sentences(l.text)) units.push({ speaker: l.speaker, text: s, order: units.length, terms: terms(s) });
  const useful = units.filter((u) => u.terms.length >= 2 && !SMALL_TALK.test(u.text));
  if (useful.length === 0) return english ? 'There is no conversation to summarise.' : 'Não há conversa para resumir.';

  const freq = new Map<string, number>();
  for (const u of useful) for (const t of new Set(u.terms)) freq.set(t, (freq.get(t) ?? 0) + 1);
  const firstCustomer = useful.find((u) => CUSTOMER_NAMES.test(u.speaker));
  const scored = useful.map((u) => {
    const distinct = [...new Set(u.terms)];
    let score = distinct.reduce((acc, t) => acc + ((freq.get(t) ?? 1) - 1), 0) / Math.sqrt(distinct.length + 1);
    score += 0.6 * recognizeEntities(u.text).length;
    if (RESOLUTION.test(u.text)) score += 1;
    if (u === firstCustomer) score += 2; // the customer's first substantive sentence is usually the reason for contact
    return { u, score };
  });
  scored.sort((a, b) => b.score - a.score || a.u.order - b.u.order);

  const heading = english ? 'Summary:' : 'Resumo:';
  const chosen: typeof useful = [];
  let words = countTokens(heading);
  for (const { u } of scored) {
    if (chosen.length >= 5) break;
    const cost = countTokens(`- ${u.speaker}: ${u.text}`);
    if (words + cost > maxWords) continue;
    chosen.push(u);
    words += cost;
  }
  if (chosen.length === 0 && scored[0]) {
    return truncateWords(`${heading} ${scored[0].u.speaker}: ${scored[0].u.text}`, maxWords);
  }
  chosen.sort((a, b) => a.order - b.order);
  return [heading, ...chosen.map((u) => `- ${u.speaker}: ${u.text}`)].join('\n');
}

/** The customer's last words: the last user turn, or its last line labelled as the customer's. */
function lastCustomerText(turns: Turn[]): string {
  const lastUser = [...turns].reverse().find((t) => t.role === 'user' && t.text.trim());
  if (!lastUser) return '';
  const labelled = lastUser.text
    .split(/\n+/)
    .map((l) => SPEAKER.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null);
  if (labelled.length) {
    const customer = [...labelled]
      .reverse()
      .find((m) => CUSTOMER_NAMES.test((m[1] ?? '').trim()) || !AGENT_NAMES.test((m[1] ?? '').trim()));
    return (customer?.[2] ?? '').trim();
  }
  return lastUser.text.trim();
}

/** Every line of the customer's, oldest first (the speaker words of `lastCustomerText`). */
function customerLines(turns: Turn[]): string[] {
  return transcript(turns)
    .filter((l) => CUSTOMER_NAMES.test(l.speaker) || !AGENT_NAMES.test(l.speaker))
    .map((l) => l.text);
}

const KB_MIN_SCORE = 0.12;
const CANNED_MIN_SCORE = 0.15;

export interface DraftSources {
  indexes: VectorIndex[];
  cannedTexts: string[];
  /** What an image shows, by its address (the stand-in's own media); null when it does not know. */
  describeImage?: (url: string) => { pt: string; en: string } | null;
}

/** Words as a pattern that starts at a word's start (JS `\b` knows no accented letters). */
const keywords = (alternatives: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})`, 'iu');

/**
 * What attendance conversations are about, by keywords: a draft answers the conversation's
 * topic, so "Quanto tempo mais vai demorar?" after a password problem gets a password answer,
 * not the delivery time its words alone would match. Deterministic, as the stand-in must be.
 */
const TOPICS: ReadonlyArray<{ name: string; words: RegExp }> = [
  {
    name: 'access',
    words: keywords('senha|password|login|logar|entrar n[oa] (?:app|aplicativo|conta|site)|acessar (?:a|minha) conta|redefini|esqueci'),
  },
  {
    name: 'delivery',
    words: keywords('entrega|entregue|rastre|transportadora|frete|correios|n[aã]o chegou|delivery|tracking|shipping|shipped'),
  },
  { name: 'billing', words: keywords('boleto|pix|pagamento|pagar|fatura|cobran[çc]a|parcela|invoice|payment') },
  { name: 'refund', words: keywords('reembols|estorn|refund') },
  { name: 'exchange', words: keywords('defeito|garantia|devolu|devolv|troca(?:r)? (?:o|um|de) produto|exchange|defect|warranty') },
  { name: 'cancel', words: keywords('cancel') },
  { name: 'connection', words: keywords('internet|roteador|conex[aã]o|wi-?fi|sinal|instabilidade|router') },
  { name: 'receipt', words: keywords('nota fiscal|nf-?e|receipt') },
];

/** The topic of a line: the one with the most keyword hits (ties go to the earlier topic). */
function topicOfLine(line: string): (typeof TOPICS)[number] | null {
  let best: (typeof TOPICS)[number] | null = null;
  let bestHits = 0;
  for (const t of TOPICS) {
    const hits = line.match(new RegExp(t.words.source, 'giu'))?.length ?? 0;
    if (hits > bestHits) {
      best = t;
      bestHits = hits;
    }
  }
  return best;
}

/** The conversation's topic: that of the customer's latest line that has one, and that line. */
function topicOf(customerLines: readonly string[]): { name: string; words: RegExp; line: string } | null {
  for (let i = customerLines.length - 1; i >= 0; i--) {
    const line = customerLines[i]!;
    const t = topicOfLine(line);
    if (t) return { ...t, line };
  }
  return null;
}

/** The closest text of `texts` to `query` among those `allowed`: by similarity, else the first allowed. */
function closest(
  hits: ReadonlyArray<{ text: string; score: number }>,
  all: readonly string[],
  allowed: (t: string) => boolean,
  floor: number,
) {
  const hit = hits.find((h) => allowed(h.text));
  if (hit) return { text: hit.text, score: Math.max(hit.score, floor) };
  const first = all.find(allowed);
  return first ? { text: first, score: floor } : null;
}

type Scored = { text: string; score: number };

/** On a known topic only what speaks of it may answer; the closest of those wins. */
function onTopicMatches(
  topic: { words: RegExp },
  query: string,
  sources: DraftSources,
): { best: Scored | null; canned: Scored | null | undefined } {
  const onTopic = (t: string) => topic.words.test(answerPart(t));
  let best: Scored | null = null;
  for (const index of sources.indexes) {
    const top = closest(index.search(query, 50), index.chunks, onTopic, KB_MIN_SCORE);
    if (top && (!best || top.score > best.score)) best = top;
  }
  const texts = sources.cannedTexts.filter(onTopic);
  const canned = closest(texts.length ? new VectorIndex(texts).search(query, 1) : [], texts, () => true, CANNED_MIN_SCORE);
  return { best, canned };
}

/** Without a topic: the closest chunk of any knowledge base, and the closest canned text. */
function anyMatches(query: string, sources: DraftSources): { best: Scored | null; canned: Scored | null | undefined } {
  let best: Scored | null = null;
  for (const index of sources.indexes) {
    const top = index.search(query, 1)[0];
    if (top && (!best || top.score > best.score)) best = top;
  }
  const canned = sources.cannedTexts.length ? new VectorIndex(sources.cannedTexts).search(query, 1)[0] : undefined;
  return { best, canned };
}

/**
 * A reply to the customer's last words, from the knowledge bases and the canned texts. `earlier`:
 * the customer's earlier lines, oldest first; they give the topic when the last line has none.
 */
export function draftReply(customerText: string, sources: DraftSources, maxWords: number, earlier: readonly string[] = []): string {
  const english = looksEnglish(customerText);
  if (!customerText) return english ? 'Hello! How can I help you?' : 'Olá! Como posso ajudar?';
  const topic = topicOf([...earlier, customerText]);
  const query = topic?.line ?? customerText;
  const { best, canned } = topic ? onTopicMatches(topic, query, sources) : anyMatches(query, sources);
  const parts: string[] = [english ? 'Hello!' : 'Olá!'];
  if (best && best.score >= KB_MIN_SCORE) parts.push(answerPart(best.text));
  if (canned && canned.score >= CANNED_MIN_SCORE && !parts.includes(canned.text)) parts.push(canned.text);
  if (parts.length === 1) {
    parts.push(
      english
        ? 'Thank you for your message. I will look into your request and get back to you shortly.'
        : 'Obrigado pela mensagem. Vou verificar sua solicitação e já retorno.',
    );
  }
  return truncateWords(parts.join(' '), maxWords);
}

export interface NlpAnswer {
  message: string;
  tool_calls: null;
  used_tokens: number;
}

export function runLocal(req: NlpRequest, sources: DraftSources): NlpAnswer {
  const maxWords = req.max_len ?? DEFAULT_MAX_LEN;
  const turns = turnsOf(req);
  const allText = turns.map((t) => t.text).join('\n');
  const english = looksEnglish(allText);
  const images = turns.flatMap((t) => t.images);
  const wantsSummary = asksForSummary(turns);

  const parts: string[] = [];
  const described = images.map((url) => ({ url, seen: sources.describeImage?.(url) ?? null }));
  for (const d of described) {
    if (d.seen) parts.push(english ? `Image: ${d.seen.en}` : `Imagem: ${d.seen.pt}`);
  }
  const unseen = described.filter((d) => !d.seen).map((d) => d.url);
  if (unseen.length) {
    parts.push(
      english
        ? `${CANNOT_SEE_IMAGES_EN}, so it cannot describe ${unseen.length === 1 ? 'the image' : `the ${unseen.length} images`} sent (${unseen.join(', ')}).`
        : `${CANNOT_SEE_IMAGES_PT}, por isso não consegue descrever ${unseen.length === 1 ? 'a imagem enviada' : `as ${unseen.length} imagens enviadas`} (${unseen.join(', ')}).`,
    );
  }
  if (wantsSummary) parts.push(summarise(transcript(turns), Math.max(1, maxWords - countTokens(parts.join(' '))), english));
  else {
    const customer = lastCustomerText(turns);
    // Asked (by the instructions or the customer) to describe an image: the description is the answer.
    const asked = turns.some((t) => t.role === 'system' && DESCRIBE_ASK.test(t.text)) || DESCRIBE_ASK.test(customer);
    const onlyDescribe = images.length > 0 && (!customer || asked);
    if (!onlyDescribe) {
      const lines = customerLines(turns);
      const earlier = lines.at(-1) === customer ? lines.slice(0, -1) : lines;
      parts.push(draftReply(customer, sources, Math.max(1, maxWords - countTokens(parts.join(' '))), earlier));
    }
  }
  const message = truncateWords(parts.join('\n'), maxWords);
  return { message, tool_calls: null, used_tokens: countTokens(allText) + countTokens(message) };
}
