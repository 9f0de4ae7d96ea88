import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Walks every view of the console as a user would: each button of the navigation rail, and in
 * each view every tab (and the tabs inside a tab), calling `visit` at each stop once nothing is
 * loading. Works in any language: it finds the rail and tabs by role, not by name.
 */
export async function walkViews(page: Page, visit: (stop: string) => Promise<void>): Promise<string[]> {
  const stops: string[] = [];
  const rail = page.locator('nav.rail').getByRole('button');
  const n = await rail.count();
  expect(n, 'views in the rail').toBeGreaterThan(1);
  for (let i = 0; i < n; i++) {
    const button = rail.nth(i);
    const name = (await button.innerText()).replace(/\s+/g, ' ').trim();
    await button.click();
    await expect(button).toHaveAttribute('aria-current', 'page');
    // Views load on first use: the walk reads the view once it is there (beside its heading).
    await expect(page.locator('.view > :not(h1)').first()).toBeVisible();
    await visitTabs(page, page.locator('.view'), name, visit, stops, 0);
  }
  return stops;
}

async function visitTabs(
  page: Page,
  scope: Locator,
  name: string,
  visit: (stop: string) => Promise<void>,
  stops: string[],
  depth: number,
): Promise<void> {
  const lists = scope.getByRole('tablist');
  if (depth > 1 || (await lists.count()) === 0) {
    await settled(page);
    stops.push(name);
    await visit(name);
    return;
  }
  const tabs = lists.first().getByRole('tab');
  const count = await tabs.count();
  for (let j = 0; j < count; j++) {
    const tab = tabs.nth(j);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    const panelId = await tab.getAttribute('aria-controls');
    const label = `${name} / ${(await tab.innerText()).replace(/\s+/g, ' ').trim()}`;
    // A tab without its own panel (the queue's buckets) is a stop as it is.
    const panel = panelId ? page.locator(`[id="${panelId}"]`) : null;
    if (panel && (await panel.getByRole('tablist').count()) > 0) await visitTabs(page, panel, label, visit, stops, depth + 1);
    else {
      await settled(page);
      stops.push(label);
      await visit(label);
    }
  }
}

/** Nothing marked busy and no "Loading…" left on screen. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByText(/^(Loading|Carregando)/)).toHaveCount(0);
}

/**
 * The English strings of the interface, read from the renderer's string tables: every value
 * before a file's pt-BR table, and the first of each `'key': ['English', 'Português']` pair.
 * Strings the same in both languages are left out (names, "SMS").
 */
export function englishSources(root = 'src-renderer/src'): { exact: Set<string>; patterns: RegExp[] } {
  const en = new Set<string>();
  const pt = new Set<string>();
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/(strings|i18n\.svelte|enums)\.ts$/.test(f)) files.push(p);
    }
  };
  walk(root);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const cut = text.search(/'pt-BR': \{|const ptBR/);
    if (cut < 0) continue;
    const pairs = /(?:'[\w.-]+'|\b[A-Z_]+): '((?:[^'\\]|\\.)*)'/g;
    for (const m of text.slice(0, cut).matchAll(pairs)) en.add(m[1]!.replace(/\\'/g, "'"));
    for (const m of text.slice(cut).matchAll(pairs)) pt.add(m[1]!.replace(/\\'/g, "'"));
    // Tables that keep both languages of a key side by side: 'key': ['English', 'Português'].
    for (const m of text.matchAll(/'[\w.-]+': \['((?:[^'\\]|\\.)*)', '((?:[^'\\]|\\.)*)'\]/g)) {
      en.add(m[1]!.replace(/\\'/g, "'"));
      pt.add(m[2]!.replace(/\\'/g, "'"));
    }
  }
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const s of en) {
    if (pt.has(s) || s.length < 3 || !/[a-z]{2}/.test(s)) continue;
    if (s.includes('{')) {
      const literal = s
        .split(/\{\w+\}/)
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      // Only templates with enough fixed English to be recognised.
      if (literal.replace(/\.\*/g, '').replace(/[^a-z]/gi, '').length >= 8) patterns.push(new RegExp(`^${literal}$`));
    } else exact.add(s);
  }
  return { exact, patterns };
}

/** Visible text and the labels assistive technology reads, outside raw data (JSON, code). */
export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>();
    const raw = (el: Element | null) => !!el?.closest('pre, code, textarea, [data-raw]');
    const shown = (el: Element) => (el as HTMLElement).checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true }) ?? true;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const t = n.textContent?.replace(/\s+/g, ' ').trim();
      if (t && el && shown(el) && !raw(el) && !el.closest('script, style')) out.add(t);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (!shown(el) || raw(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.add(v);
      }
    }
    for (const el of document.querySelectorAll('option')) if (el.textContent?.trim()) out.add(el.textContent.trim());
    return [...out];
  });
}

/**
 * Labels the user cannot read whole: text cut by an ellipsis or hidden overflow, a drop-down
 * whose chosen option is wider than the box, a table wider than its frame (a sideways scroll).
 * Each as "text (where)".
 */
export async function clippedLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const shown = (el: Element) => (el as HTMLElement).checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true }) ?? true;
    const where = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    const canvas = document.createElement('canvas').getContext('2d')!;
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!shown(el) || el.closest('pre, code, textarea, [data-raw]')) continue;
      const css = getComputedStyle(el);
      if (el instanceof HTMLSelectElement) {
        const text = el.selectedOptions[0]?.textContent?.trim() ?? '';
        canvas.font = `${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
        // The box's room for text: its width less its padding and the arrow (about 20 px).
        const room = el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 20;
        if (text && canvas.measureText(text).width > room + 1) out.push(`${text} (${where(el)})`);
        continue;
      }
      if (el instanceof HTMLTableElement) {
        const frame = el.parentElement;
        if (frame && frame.scrollWidth > frame.clientWidth + 1 && getComputedStyle(frame).overflowX !== 'visible') {
          out.push(`${el.getAttribute('aria-label') ?? el.querySelector('caption, th')?.textContent?.trim() ?? 'table'} (sideways scroll)`);
        }
        continue;
      }
      const cuts = css.textOverflow === 'ellipsis' || (css.overflowX === 'hidden' && css.whiteSpace === 'nowrap');
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (cuts && ownText && el.scrollWidth > el.clientWidth + 1 && !el.classList.contains('sr-only')) {
        out.push(`${el.textContent?.replace(/\s+/g, ' ').trim()} (${where(el)})`);
      }
    }
    return out;
  });
}
