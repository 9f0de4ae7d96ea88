import type { Reporter, TestCase, TestResult, FullResult } from '@playwright/test/reporter';

/** Prints the closing line `N passed, N failed, N skipped` that CI reads. */
export default class SummaryReporter implements Reporter {
  #outcomes = new Map<string, TestCase['outcome'] extends () => infer R ? R : never>();

  onTestEnd(test: TestCase, _result: TestResult): void {
    this.#outcomes.set(test.id, test.outcome());
  }

  onEnd(_result: FullResult): void {
    let passed = 0,
      failed = 0,
      skipped = 0;
    for (const outcome of this.#outcomes.values()) {
      if (outcome === 'expected' || outcome === 'flaky') passed++;
      else if (outcome === 'skipped') skipped++;
      else failed++;
    }
    console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
