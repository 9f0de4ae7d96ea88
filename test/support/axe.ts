import type { Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';

/**
 * Every axe finding on the page as it is now (WCAG 2.x A and AA, and axe's best practices),
 * whatever its impact, each named by `stop`: the console's goal is none.
 */
export async function axeViolations(page: Page, stop: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${stop}: ${v.impact ?? ''} ${v.id} ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
  );
}
