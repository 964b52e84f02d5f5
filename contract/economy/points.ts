// An observation as the documents write it: the stored point without its release time, which only the
// real-time answers carry (docs/api-economy.md, "As of any date"). Shared by the server's answers and the
// build's static snapshots, which must be the same document key for key.
import type { Observation } from './types.ts';

/** A point of a plain document: `{ date, value }`, with `status` when the upstream flagged it. */
export type PlainPoint = Pick<Observation, 'date' | 'value' | 'status'>;

/** The points as a plain document writes them; the same array when none carries a release time. */
export function toPlainPoints(obs: readonly Observation[]): readonly PlainPoint[] {
  if (!obs.some((o) => o.released !== undefined)) return obs;
  return obs.map((o) =>
    o.status === undefined ? { date: o.date, value: o.value } : { date: o.date, value: o.value, status: o.status },
  );
}
