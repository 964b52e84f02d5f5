// What the machine is doing besides the bench: busy and stolen CPU time, stated beside the figures.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
/** Linux's CPU counters (/proc/stat, all CPUs): steal is time the hypervisor gave to other machines. */
export function readCpuTicks(): { steal: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    if (fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return undefined;
    return { steal: fields[7]!, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/**
 * The share of the CPUs' time stolen between two readings: on a shared VM the same code runs slower and
 * with longer tails while it is high, so the report states it beside the figures.
 */
export function stolenShare(
  a: ReturnType<typeof readCpuTicks>,
  b: ReturnType<typeof readCpuTicks>,
): number | undefined {
  if (!a || !b || b.total <= a.total) return undefined;
  return (b.steal - a.steal) / (b.total - a.total);
}

/** Share of all CPU time spent busy over `ms`, before the bench starts anything of its own. */
export async function sampleBusy(ms: number): Promise<number> {
  const total = () =>
    cpus().reduce(
      (acc, c) => ({
        idle: acc.idle + c.times.idle,
        all: acc.all + c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle,
      }),
      { idle: 0, all: 0 },
    );
  const a = total();
  await sleep(ms);
  const b = total();
  return b.all > a.all ? 1 - (b.idle - a.idle) / (b.all - a.all) : 0;
}
