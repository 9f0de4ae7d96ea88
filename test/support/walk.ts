import { readFileSync } from 'node:fs';
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
  await expect(page.getByText(/^(Loading|Carregando|Cargando)/)).toHaveCount(0);
}

/**
 * The words of the other languages' catalogs (src-renderer/src/locales) that the shown language
 * does not share: exact texts, and patterns for messages with values (`{name}`, and each form of a
 * plural). Read as the ICU messages' text, not through the product's formatter.
 */
export function foreignSources(
  shown: string,
  others: string[],
  dir = 'src-renderer/src/locales',
): { exact: Set<string>; patterns: RegExp[] } {
  const read = (lang: string) => JSON.parse(readFileSync(join(dir, `${lang}.json`), 'utf8')) as Record<string, string>;
  const own = new Set(Object.values(read(shown)).flatMap(textsOf));
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const s of new Set(others.flatMap((l) => Object.values(read(l)).flatMap(textsOf)))) {
    if (own.has(s) || s.length < 3 || !/[a-z]{2}/.test(s)) continue;
    if (s.includes('\u0000')) {
      const literal = s
        .split('\u0000')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      // Only templates with enough fixed words to be recognised.
      if (literal.replace(/\.\*/g, '').replace(/[^a-z]/gi, '').length >= 8) patterns.push(new RegExp(`^${literal}$`));
    } else exact.add(s);
  }
  return { exact, patterns };
}

/** English's words that pt-BR does not share. */
export const englishSources = () => foreignSources('pt-BR', ['en']);

/**
 * The texts an ICU message can read as, values marked by U+0000: `{name}` and `#` become the
 * mark, and a plural or select gives one text per form ('' quoting undone).
 */
export function textsOf(message: string): string[] {
  let texts = [''];
  let i = 0;
  while (i < message.length) {
    const c = message[i]!;
    if (c === "'" && message[i + 1] === "'") {
      texts = texts.map((t) => t + "'");
      i += 2;
    } else if (c === '#') {
      texts = texts.map((t) => t + '\u0000');
      i++;
    } else if (c === '{') {
      const end = closing(message, i);
      const inner = message.slice(i + 1, end);
      const m = /^\s*\w+\s*,\s*(plural|select|selectordinal)\s*,/.exec(inner);
      if (m) {
        const forms: string[] = [];
        const body = inner.slice(m[0].length);
        for (let j = 0; j < body.length; j++) {
          if (body[j] !== '{') continue;
          const k = closing(body, j);
          forms.push(...textsOf(body.slice(j + 1, k)));
          j = k;
        }
        texts = texts.flatMap((t) => forms.map((f) => t + f));
      } else texts = texts.map((t) => t + '\u0000');
      i = end + 1;
    } else {
      texts = texts.map((t) => t + c);
      i++;
    }
  }
  return texts;
}

function closing(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return s.length;
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
