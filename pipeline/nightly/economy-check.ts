// The nightly job's economy step: the registry is reviewed data and observations are pulled at request time,
// so it only checks, through the real clients, that every WDS vector still answers with the registry's scalar
// factor (a terminated one is noted) and every Valet name is known; a failure fails the economy service.
import type { RegistryEntry } from '../../contract/economy/types.ts';
import { UpstreamError, type FetchLike } from '../../contract/economy/upstream/port.ts';
import { createStatcanClient, type WdsSeriesInfo, type WdsItem } from '../../contract/economy/upstream/statcan.ts';
import { createValetClient } from '../../contract/economy/upstream/valet.ts';

export interface EconomyCheckOptions {
  statcanUrl: string;
  valetUrl: string;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  /** YYYY-MM-DD: Valet is asked for observations from this day on. */
  today: string;
  fetch?: FetchLike;
  sleep?: (ms: number) => Promise<void>;
}

export interface EconomyCheckResult {
  /** Series whose identifiers the upstream confirmed. */
  confirmed: string[];
  /** Per series: which identifier failed and why (`message` is shared by every series a batch failure hit). */
  failed: { id: string; upstreamId: string; message: string }[];
  notes: string[];
}

const WDS_BATCH = 100;
const VALET_BATCH = 20;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Retries transport failures (no HTTP status, or 408/429/5xx); an answer the upstream meant is final. */
async function withRetries<T>(what: () => Promise<T>, o: EconomyCheckOptions): Promise<T> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  for (let n = 0; ; n++) {
    try {
      return await what();
    } catch (err) {
      const status = err instanceof UpstreamError ? err.status : undefined;
      const transient = status === undefined || status === 408 || status === 429 || status >= 500;
      if (!transient || n >= o.retries) throw err;
      await sleep(o.retryDelayMs * 2 ** n);
    }
  }
}

export async function checkEconomyRegistry(
  entries: readonly RegistryEntry[],
  o: EconomyCheckOptions,
): Promise<EconomyCheckResult> {
  const statcan = createStatcanClient({ baseUrl: o.statcanUrl, fetch: o.fetch, timeoutMs: o.timeoutMs });
  const valet = createValetClient({ baseUrl: o.valetUrl, fetch: o.fetch, timeoutMs: o.timeoutMs });
  const failed: EconomyCheckResult['failed'] = [];
  const notes: string[] = [];
  const fail = (id: string, upstreamId: string, message: string) => failed.push({ id, upstreamId, message });

  // StatCan: one answer per vector, then each series against its vectors.
  const vectors = [...new Set(entries.flatMap((e) => e.vectorIds))];
  const info = new Map<number, WdsItem<WdsSeriesInfo> | Error>();
  for (const batch of chunks(vectors, WDS_BATCH)) {
    try {
      const items = await withRetries(() => statcan.getSeriesInfoFromVector(batch), o);
      batch.forEach((v, i) => {
        const item = items.find((it) => it.vectorId === v) ?? (items[i]?.vectorId === undefined ? items[i] : undefined);
        info.set(v, item ?? new Error('missing from the answer'));
      });
    } catch (err) {
      for (const v of batch) info.set(v, err as Error);
    }
  }
  for (const e of entries) {
    for (const v of e.vectorIds) {
      const item = info.get(v);
      if (!item || item instanceof Error) fail(e.id, `v${v}`, item?.message ?? 'not asked');
      else if (!item.ok) fail(e.id, `v${v}`, item.message);
      else {
        const code = item.object.scalarFactorCode;
        if (code !== null && code !== undefined && Number(code) !== e.scalarFactorCode)
          fail(e.id, `v${v}`, `WDS scalarFactorCode ${code}, the registry says ${e.scalarFactorCode}`);
        if (Number(item.object.terminated) === 1) notes.push(`${e.id}: v${v} is terminated upstream`);
      }
    }
  }

  // Valet: a batch answers when every name in it is known; a 404 is narrowed down name by name.
  const names = [...new Set(entries.flatMap((e) => e.seriesNames))];
  const known = new Map<string, true | Error>();
  const ask = async (batch: string[]) => {
    const body = await withRetries(() => valet.getObservations(batch, { startDate: o.today }), o);
    for (const n of batch)
      known.set(n, !body.seriesDetail || n in body.seriesDetail ? true : new Error('missing from the answer'));
  };
  for (const batch of chunks(names, VALET_BATCH)) {
    try {
      await ask(batch);
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404 && batch.length > 1) {
        for (const n of batch) await ask([n]).catch((e: unknown) => known.set(n, e as Error));
      } else for (const n of batch) known.set(n, err as Error);
    }
  }
  for (const e of entries) {
    for (const n of e.seriesNames) {
      const k = known.get(n);
      if (k !== true) fail(e.id, n, k?.message ?? 'not asked');
    }
  }

  const failedIds = new Set(failed.map((f) => f.id));
  return { confirmed: entries.filter((e) => !failedIds.has(e.id)).map((e) => e.id), failed, notes };
}
