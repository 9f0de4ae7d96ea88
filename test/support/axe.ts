import type { Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';

/** Serious and critical axe findings (WCAG 2.x A and AA) on the page as it is now, each named by `stop`. */
export async function seriousViolations(page: Page, stop: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${stop}: ${v.id} ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}
