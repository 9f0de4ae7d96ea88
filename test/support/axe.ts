import type { Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

/** axe's findings (WCAG 2.x A and AA, and axe's best practices) of the given impacts, each named by `stop`. */
async function violations(page: Page, stop: string, impacts: readonly Impact[]): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations
    .filter((v) => impacts.includes(v.impact as Impact))
    .flatMap((v) => v.nodes.map((n) => `${stop}: ${v.id} ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}

/** Serious and critical axe findings on the page as it is now. */
export async function seriousViolations(page: Page, stop: string): Promise<string[]> {
  return violations(page, stop, ['serious', 'critical']);
}

/** Every axe finding on the page as it is now, whatever its impact: the console's goal is none. */
export async function axeViolations(page: Page, stop: string): Promise<string[]> {
  return violations(page, stop, ['minor', 'moderate', 'serious', 'critical']);
}
