// A carrier's memory across builds, beside its profile: its changes in the kept history (a record store by
// carrier_id), and each build's BASIC percentiles and alerts (one small binary snapshot a build, the last
// TREND_BUILDS kept) for the profile's `trend`. The pipeline writes them; the server reads them.
import { buildName } from '../core/changes.ts';
import { BASICS, type Basic } from './basics.ts';

/** Each carrier's changes in the kept history, oldest first: a JSON array of dated changes (record store). */
export const CARRIER_HISTORY = 'private/changes/carriers';
/**
 * What the next build compares of each carrier: its view (pointer and value pairs, as JSON), by carrier_id
 * (record store). A carrier whose view reads the same is unchanged, without its profile being parsed.
 */
export const CARRIER_VIEWS = 'private/views';
/** The folder of the builds' snapshots, `<build>.bin` named like the build's first page. */
export const TREND_DIR = 'private/changes/trend';
/** The builds a profile's trend shows. */
export const TREND_BUILDS = 24;

const MAGIC = 'SLTREND1';
const HEADER = 16;
/** A percentile absent (null) in a snapshot. */
const NONE = 0xffff;

/** A build's snapshot file, by the href of its first page. */
export function trendFile(href: string): string {
  return `${TREND_DIR}/${buildName({ href })}.bin`;
}

/** One carrier in a snapshot: its percentile (null when none) and alert per BASIC, in BASICS order. */
export interface TrendRow {
  id: number;
  percentiles: readonly (number | null)[];
  alerts: readonly boolean[];
}

/**
 * A snapshot: a 16-byte header (`SLTREND1`, the row count, the BASIC count), the carrier ids ascending
 * (uint32), each row's percentiles in hundredths (uint16, 0xffff for none), each row's alerts (a bit per
 * BASIC). 19 bytes a carrier, so 24 builds of a few hundred thousand ranked carriers stay small.
 */
export function encodeTrend(rows: readonly TrendRow[]): Buffer {
  const n = rows.length;
  const k = BASICS.length;
  const buf = Buffer.alloc(HEADER + n * 4 + n * k * 2 + n);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(n, 8);
  buf.writeUInt8(k, 12);
  const pAt = HEADER + n * 4;
  const aAt = pAt + n * k * 2;
  rows.forEach((r, i) => {
    buf.writeUInt32LE(r.id, HEADER + i * 4);
    for (let b = 0; b < k; b++) {
      const p = r.percentiles[b] ?? null;
      const hundredths = p === null ? NONE : Math.round(p * 100);
      if (p !== null && (hundredths < 0 || hundredths >= NONE || Math.abs(hundredths - p * 100) > 1e-6))
        throw new Error(`percentile ${p} of carrier ${r.id} is not a hundredth between 0 and 100`);
      buf.writeUInt16LE(hundredths, pAt + (i * k + b) * 2);
    }
    buf.writeUInt8(
      r.alerts.reduce((bits, a, b) => bits | (a ? 1 << b : 0), 0),
      aAt + i,
    );
  });
  return buf;
}

/** One build's BASICs for one carrier, as the profile's `trend` lists them. */
export type TrendPoint = Record<Basic, { percentile: number | null; alert: boolean }>;

export interface TrendSnapshot {
  /** The carrier's BASICs in this build, or undefined when it had none ranked or alerted. */
  of(id: number): TrendPoint | undefined;
}

export function decodeTrend(buf: Buffer, name: string): TrendSnapshot {
  if (buf.length < HEADER || buf.toString('latin1', 0, 8) !== MAGIC) throw new Error(`${name} is not a trend snapshot`);
  const n = buf.readUInt32LE(8);
  const k = buf.readUInt8(12);
  if (k !== BASICS.length || buf.length !== HEADER + n * 4 + n * k * 2 + n)
    throw new Error(`${name} has the wrong size for ${n} carriers`);
  const copy = (at: number, bytes: number) => new Uint8Array(buf.subarray(at, at + bytes)).buffer;
  const ids = new Uint32Array(copy(HEADER, n * 4));
  const pAt = HEADER + n * 4;
  const percentiles = new Uint16Array(copy(pAt, n * k * 2));
  const alerts = buf.subarray(pAt + n * k * 2);
  return {
    of(id) {
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = ids[mid]!;
        if (at < id) lo = mid + 1;
        else if (at > id) hi = mid - 1;
        else {
          const point = {} as TrendPoint;
          BASICS.forEach((basic, b) => {
            const p = percentiles[mid * k + b]!;
            point[basic] = { percentile: p === NONE ? null : p / 100, alert: (alerts[mid]! & (1 << b)) !== 0 };
          });
          return point;
        }
      }
      return undefined;
    },
  };
}
