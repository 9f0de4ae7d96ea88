import type { CannedReply, Suggestion, Template } from '../../../src-shared/bridge/attendance';
import { idOf, text as str } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { ChatSuggestion, HsmTemplate, HsmTemplateGroup, MessageBundleGroup } from '../../../src-shared/schemas/index';
import { toSuggestion } from './project';
import { templateParameterCount } from '../../../src-shared/template';

/** The composer's helps as the page shows them, from the records the service gave. */

/** Canned replies for a session of group `groupId`: the general ones and the group's own. */
export function cannedOf(rows: readonly Read<MessageBundleGroup>[], groupId: number | null): CannedReply[] {
  const canned: CannedReply[] = [];
  for (const r of rows) {
    const id = r.id ?? null;
    const code = str(r.code);
    const text = str(r.text);
    if (id === null || !code || !text) continue;
    const gid = idOf(r.group);
    if (gid !== null && gid !== groupId) continue;
    canned.push({ id, code, description: str(r.description) ?? '', text });
  }
  return canned;
}

/** The session's own suggestions first, then the general ones, each text once. */
export function suggestionsOf(own: readonly Read<ChatSuggestion>[], general: readonly Read<ChatSuggestion>[]): Suggestion[] {
  const suggestions: Suggestion[] = [];
  const seen = new Set<string>();
  for (const [rows, forSession] of [
    [own, true],
    [general, false],
  ] as const) {
    for (const s of rows) {
      const one = toSuggestion(s, forSession);
      if (!one || seen.has(one.text)) continue;
      seen.add(one.text);
      suggestions.push(one);
    }
  }
  return suggestions;
}

/** The active templates, those the group links when it links any (`links` null: every one). */
export function templatesOf(rows: readonly Read<HsmTemplate>[], links: readonly Read<HsmTemplateGroup>[] | null): Template[] {
  const allowed =
    links === null
      ? null
      : new Set(links.map((l) => l.hsmTemplateGroupId?.hsmTemplateId ?? idOf(l.hsmTemplate)).filter((x): x is number => x != null));
  const templates: Template[] = [];
  for (const t of rows) {
    const id = t.id ?? null;
    const template = str(t.template);
    if (id === null || !template || t.active === false || (allowed !== null && !allowed.has(id))) continue;
    const counted = templateParameterCount(template);
    templates.push({
      id,
      name: str(t.elementName) ?? `#${id}`,
      description: str(t.description) ?? '',
      template,
      parameterCount: t.parameterCount ?? counted,
    });
  }
  return templates;
}
