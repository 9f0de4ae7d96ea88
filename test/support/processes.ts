import { readdir } from 'node:fs/promises';

/** Whether a process with this id exists (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Process ids (from /proc, Linux) for which `match` holds. */
export async function processes(match: (pid: number) => Promise<boolean>): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (/^\d+$/.test(name) && (await match(Number(name)))) pids.push(Number(name));
  }
  return pids;
}
