// The economy demo's inputs: a vintage archive (what the nightly job's pulls leave in STATE_DIR/economy/
// vintages), one snapshot of every registry series a month apart per edition, pulled through the real
// Statistics Canada and Valet adapters from the built-in demo upstream as of each day. A later edition adds
// a month: its new observations, and the moved preliminary latest values, are what its build records as
// changes. The economy build reads no other input (the registry is the repository's).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createDemoUpstreams } from '../../../contract/economy/upstream/demo.ts';
import { loadRegistry } from '../../economy/registry.ts';

/** The day the latest edition's snapshots are taken. */
export const ECONOMY_DEMO_DAY = '2026-11-27';
/** The folder of the archive inside the demo inputs. */
export const DEMO_VINTAGES = 'vintages';
const MONTH_MS = 30 * 86_400_000;

export interface EconomyDemoOptions {
  /** From 1: the snapshots of editions 1 to this one. */
  edition?: number;
  /** The edition whose snapshots are taken on ECONOMY_DEMO_DAY (default 1); earlier ones a month apart. */
  latestEdition?: number;
  onProgress?: (msg: string) => void;
}

export async function writeEconomyDemo(
  dir: string,
  options: EconomyDemoOptions = {},
): Promise<{ files: string[]; facts: { series: number; snapshots: number; days: string[] } }> {
  const edition = options.edition ?? 1;
  const latest = options.latestEdition ?? 1;
  if (!(Number.isInteger(edition) && edition >= 1 && edition <= 100))
    throw new Error(`demo: edition must be an integer from 1 to 100, got ${edition}`);
  const entries = loadRegistry().entries;
  const files: string[] = [];
  const days: string[] = [];
  for (let e = 1; e <= edition; e++) {
    const at = new Date(Date.parse(`${ECONOMY_DEMO_DAY}T06:00:00Z`) - (latest - e) * MONTH_MS);
    const day = at.toISOString().slice(0, 10);
    days.push(day);
    const upstreams = createDemoUpstreams({ now: () => at, entries });
    for (const entry of entries) {
      const upstream = upstreams[entry.source];
      const { observations, missing, released } = await upstream.pull(entry, AbortSignal.timeout(10_000));
      const file = join(dir, DEMO_VINTAGES, entry.id, `${day}.json`);
      await mkdir(join(dir, DEMO_VINTAGES, entry.id), { recursive: true });
      const snapshot = {
        ...{ series: entry.id, vintage: day, asOf: at.toISOString(), source: upstream.label, observations },
        ...(missing.length > 0 && { missing }),
        ...(released !== undefined && { released }),
      };
      await writeFile(file, JSON.stringify(snapshot));
      files.push(file);
    }
    options.onProgress?.(`economy: snapshots of ${entries.length} series on ${day}`);
  }
  return { files, facts: { series: entries.length, snapshots: files.length, days } };
}
