// `/stats`: match counts, the funnel from raw inputs to anchored facilities, top emitters and how far the
// two programs agree in the comparison year (docs/contracts/facilities.md).
import { median, round } from '../../contract/core/values.ts';
import type { LinkResult } from './link.ts';
import { toEmissions } from './records.ts';
import type { BaseRecord, Delta } from '../../contract/facilities/record.ts';
import type { Stats as GeneratedStats } from '../../contract/types/facilities/stats.ts';

/** GET /api/v1/stats (schemas/facilities/stats.schema.json). */
export type Stats = GeneratedStats;
export type FunnelStage = Stats['funnel'][number];

export interface StatsInput {
  year: number;
  records: readonly (BaseRecord & { delta: Delta | null })[];
  link: LinkResult;
  ontarioRows: number;
  federalRows: number;
  federalIds: number;
}

/** Ranking order shared by top emitters and search: emissions descending, none last, then spine_id. */
export function compareByEmissions(a: BaseRecord, b: BaseRecord): number {
  const ea = toEmissions(a.totals);
  const eb = toEmissions(b.totals);
  if (ea !== eb) {
    if (ea === null) return 1;
    if (eb === null) return -1;
    return eb - ea;
  }
  return a.spine_id < b.spine_id ? -1 : a.spine_id > b.spine_id ? 1 : 0;
}

export function toStats({ year, records, link, ontarioRows, federalRows, federalIds }: StatsInput): Stats {
  const count = (p: (r: BaseRecord) => boolean) => records.filter(p).length;
  const anchored = count((r) => r.tier === 'anchored');
  const ontarioIds = link.components.reduce((n, c) => n + c.ontario.length, 0);
  const otherCity = new Set(link.nearMisses.filter((m) => m.kind === 'same_name_other_city').map((m) => m.ontario_id))
    .size;
  const similar = new Set(link.nearMisses.filter((m) => m.kind === 'similar_name_same_city').map((m) => m.ontario_id))
    .size;
  const funnel: FunnelStage[] = [
    {
      stage: 'ontario_rows',
      count: ontarioRows,
      description: 'facility-year rows used from the Ontario registry',
      narrowing: false,
    },
    { stage: 'ontario_facilities', count: ontarioIds, description: 'distinct Ontario GHG IDs', narrowing: true },
    {
      stage: 'ontario_linkable',
      count: link.linkableOntario,
      description: 'Ontario IDs with a facility name and a city in at least one year',
      narrowing: true,
    },
    {
      stage: 'ontario_name_match',
      count: link.nameMatchedOntario,
      description: 'Ontario IDs whose normalized name equals a federal facility name in some city',
      narrowing: true,
    },
    {
      stage: 'ontario_anchored',
      count: link.anchoredOntario,
      description: 'Ontario IDs whose normalized name and city equal a federal pair in some year',
      narrowing: true,
    },
    {
      stage: 'rejected_same_name_other_city',
      count: otherCity,
      description:
        'Ontario IDs with a federal facility of the same name in another city only (near-miss, not linked; see report.json)',
      narrowing: false,
    },
    {
      stage: 'rejected_similar_name_same_city',
      count: similar,
      description:
        'Ontario IDs with a similar (≥ 0.85) but not identical federal name in the same city (near-miss, not linked; see report.json)',
      narrowing: false,
    },
    {
      stage: 'federal_rows',
      count: federalRows,
      description: 'federal facility-year rows in Ontario used (emissions by gas and indicator table)',
      narrowing: false,
    },
    { stage: 'federal_facilities', count: federalIds, description: 'distinct GHGRP IDs in Ontario', narrowing: false },
    {
      stage: 'anchored',
      count: anchored,
      description: 'anchored facilities: one spine record per linked group of Ontario and federal IDs',
      narrowing: true,
    },
  ];

  const top_emitters = [...records]
    .filter((r) => toEmissions(r.totals) !== null)
    .sort(compareByEmissions)
    .slice(0, 30)
    .map((r, i) => ({
      rank: i + 1,
      spine_id: r.spine_id,
      name: r.name,
      city: r.city,
      emissions: toEmissions(r.totals)!,
      program: r.program,
    }));

  const compared = records.filter((r) => r.delta !== null) as (BaseRecord & { delta: Delta })[];
  const abs = compared.map((r) => Math.abs(r.delta.pct));
  const within = (limit: number) => abs.filter((p) => p <= limit).length;
  const medianAbs = median(abs);
  return {
    year,
    match: {
      facilities: records.length,
      anchored,
      unmatched: records.length - anchored,
      both: count((r) => r.program === 'both'),
      ontario_only: count((r) => r.program === 'ontario_only'),
      federal_only: count((r) => r.program === 'federal_only'),
      anchored_rate: records.length ? round(anchored / records.length, 4) : 0,
    },
    funnel,
    top_emitters,
    agreement: {
      year,
      compared: compared.length,
      within_1pct: within(1),
      within_5pct: within(5),
      within_10pct: within(10),
      over_10pct: abs.filter((p) => p > 10).length,
      median_abs_pct: medianAbs === null ? null : round(medianAbs, 2),
      largest: [...compared]
        .sort((a, b) => Math.abs(b.delta.tonnes) - Math.abs(a.delta.tonnes) || (a.spine_id < b.spine_id ? -1 : 1))
        .slice(0, 10)
        .map((r) => ({ spine_id: r.spine_id, name: r.name, tonnes: r.delta.tonnes, pct: r.delta.pct })),
    },
  };
}
