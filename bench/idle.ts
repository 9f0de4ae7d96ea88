import type { BenchRow } from './types';
import { connectAttendant, cpuSeconds, launchChromium, profileWith, spawnHost, stopHost } from './support';
import { startStandin } from '../src-standin/index';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);

/**
 * A console left open with nothing happening must be quiet: CPU of the host process and of the
 * renderer over a quiet minute, against a remote workspace (a stand-in with its simulator off,
 * in this process, so its own CPU is not counted).
 */
export async function run(): Promise<BenchRow[]> {
  const sb = await startStandin({ port: 0 });
  const profile = profileWith({ kind: 'remote', baseUrl: sb.baseUrl });
  // The token is stored the way the console stores it: through its own connect call below.
  const host = await spawnHost(profile);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await connectAttendant(page, host.url, { baseUrl: sb.baseUrl, token: sb.tokens.agent, userName: sb.demoAgent.userName });
    await page.getByRole('tab', { name: /Waiting/ }).waitFor();
    await page.waitForTimeout(3000); // let start-up work settle before the quiet minute

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const task = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
    };
    const host0 = cpuSeconds(host.child.pid!);
    const r0 = await task();
    await page.waitForTimeout(IDLE_SECONDS * 1000);
    const hostCpu = ((cpuSeconds(host.child.pid!) - host0) / IDLE_SECONDS) * 100;
    const rendererCpu = (((await task()) - r0) / IDLE_SECONDS) * 100;
    return [
      { figure: `idle CPU, host process (${IDLE_SECONDS} s)`, value: hostCpu, unit: '%', budget: '< 1 %', holds: hostCpu < 1 },
      {
        figure: `idle CPU, renderer main thread (${IDLE_SECONDS} s)`,
        value: rendererCpu,
        unit: '%',
        budget: '< 1 %',
        holds: rendererCpu < 1,
      },
    ];
  } finally {
    await browser.close();
    await stopHost(host.child);
    await sb.close();
  }
}
