import type { Settings } from '../settings';

/** The stand-in's seeded knowledge base (src-standin/ai): the demo workspace's default. */
const DEMO_KB = 'demo_atendimento_data_pt';

/** At most this many names are kept: the list is offered whole in a select. */
const MAX_KNOWN = 50;

/**
 * The knowledge bases a workspace knows: uploaded from this console, searched successfully, or
 * named in its settings (the one searched last first). Kept in the workspace's own settings, so
 * they survive a restart and never leak into another workspace.
 */
export function knownBases(settings: Settings, demo: boolean): { bases: string[]; last: string | null } {
  const last = settings.get('knowledgeBase') || (demo ? DEMO_KB : null);
  const names = [...(last ? [last] : []), ...settings.get('knowledgeBases'), ...(demo ? [DEMO_KB] : [])];
  return { bases: [...new Set(names)], last };
}

/** Remembers a base this workspace uploaded or used (newest first). */
export function rememberBase(settings: Settings, name: string): void {
  const kept = settings.get('knowledgeBases').filter((n) => n !== name);
  settings.set('knowledgeBases', [name, ...kept].slice(0, MAX_KNOWN));
}
