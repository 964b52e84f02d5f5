// The SMS methodology as data: `data/carriers/sms-methodology.json`, validated against `carriers/methodology`
// once per process. Every number the ranking uses lives in that reviewed file, which cites the methodology
// section or reference note behind it (shared/reference/sms-methodology.md); the build ranks by it
// (pipeline/carriers/methodology.ts) and explain and export read it back.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemas } from '../core/schemas.ts';
import { BASICS, type Basic } from './basics.ts';

export const METHODOLOGY_PATH = fileURLToPath(new URL('../../data/carriers/sms-methodology.json', import.meta.url));

export type Segment = 'combination' | 'straight';
export type CarrierType = 'general' | 'passenger' | 'hazmat';
export type MeasureKind = 'per_power_unit' | 'per_relevant_inspection';
/** Which count of `CarrierAggregate.basics[b]` a rule reads. */
export type CountField = 'relevant' | 'with_violations';

interface Cited {
  source: string;
  /** An open item, `[verify] …`: not confirmed from the primary methodology document. */
  review?: string;
}
export interface Noun {
  one: string;
  other: string;
}
/** A safety event group: inclusive bounds, `max` null for the open-ended last group. */
export interface SegGroup {
  min: number;
  max: number | null;
}
export interface UfRow {
  max_vmt_per_pu: number | null;
  base: number;
  offset: number;
  divisor: number | null;
}
export interface BasicRules extends Cited {
  label: string;
  regulations: string;
  public_percentile: boolean;
  measure: MeasureKind;
  units: { relevant: Noun; with_violations?: Noun; events: Noun };
  seg: Cited & { basis: CountField; groups: { combination: SegGroup[]; straight: SegGroup[] } | { all: SegGroup[] } };
  sufficiency: Cited & { min_relevant: number | null; min_with_violations: number | null };
  relevant_inspections?: string;
}
export type ThresholdRow = Record<Basic, number>;

/** The shape of `data/carriers/sms-methodology.json` (schema `carriers/methodology`). */
export interface Methodology {
  version: string;
  title: string;
  note: string;
  document: Cited & { title: string; edition: string; url: string };
  time_weights: Cited & {
    window_months: number;
    bands: { max_age_months: number; weight: number }[];
    age_rule: string;
  };
  severity: Cited & { inspection_cap: number; oos_add_on: number; rule: string };
  crash_severity: Cited & {
    tow_away: number;
    injury_or_fatality: number;
    hazmat_release_add_on: number;
    exclude_not_preventable: boolean;
  };
  power_units: Cited & { rule: string };
  segments: Cited & { applies_to: Basic[]; combination_share_min: number; default: Segment; default_reason: string };
  utilization_factor: Cited & { vmt: string; formula: string; no_vmt_factor: number; rows: Record<Segment, UfRow[]> };
  basics: Record<Basic, BasicRules>;
  measures: Record<MeasureKind, Cited & { formula: string }>;
  sufficiency: {
    no_violations: Cited & { rule: string };
    critical_mass: Cited & { months: number; applied: boolean; rule: string };
  };
  percentiles: Cited & { formula: string; decimals: number; single_carrier: number };
  thresholds: Cited & Record<CarrierType, ThresholdRow>;
  carrier_types: Cited & {
    order: CarrierType[];
    order_reason: string;
    passenger: Cited & { census_flag: 'pc_flag'; rule: string };
    hazmat: Cited & {
      census_flag: 'hm_flag';
      min_placard_inspections_24m: number;
      min_placard_inspections_12m: number;
      min_share_of_inspections: number;
      rule: string;
    };
  };
  outlier_fleets: Cited & {
    rules: { id: string; power_units_over: number; drivers_below_share: number | null; reason: string }[];
    effect: string;
  };
  public_display: Cited & { restricted_note: string; rule: string };
}

/** A carrier's safety event group for one BASIC: `unsafe_driving:combination:2`, `hos_compliance:3`. */
export interface Seg {
  id: string;
  /** "Carriers with 9–21 inspections with unsafe-driving violations (combination segment)". */
  label: string;
  /** What the group is based on and where the boundaries come from. */
  basis: string;
}

/** Invariants the schema cannot express; each names the offending entry. */
export function assertMethodology(m: Methodology, where: string): void {
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  const bands = m.time_weights.bands;
  bands.forEach((b, i) => {
    if (i > 0 && b.max_age_months <= bands[i - 1]!.max_age_months) fail(`/time_weights/bands/${i} is not ascending`);
  });
  if (bands.at(-1)?.max_age_months !== m.time_weights.window_months)
    fail('/time_weights: the last band must end at window_months');
  for (const seg of ['combination', 'straight'] as const) {
    const rows = m.utilization_factor.rows[seg];
    rows.forEach((r, i) => {
      const last = i === rows.length - 1;
      if (last !== (r.max_vmt_per_pu === null))
        fail(`/utilization_factor/rows/${seg}/${i}: only the last row has no upper bound`);
      const prev = rows[i - 1]?.max_vmt_per_pu;
      if (i > 0 && r.max_vmt_per_pu !== null && prev !== null && prev !== undefined && r.max_vmt_per_pu <= prev)
        fail(`/utilization_factor/rows/${seg}/${i} is not ascending`);
    });
  }
  for (const basic of BASICS) {
    const rules = m.basics[basic];
    const at = `/basics/${basic}`;
    const segmented = m.segments.applies_to.includes(basic);
    if (segmented !== 'combination' in rules.seg.groups)
      fail(
        `${at}/seg/groups: segmented BASICs (segments.applies_to) have combination and straight groups, the others one 'all' list`,
      );
    for (const field of ['relevant', 'with_violations'] as const) {
      const used = rules.seg.basis === field || rules.sufficiency[`min_${field}`] !== null;
      if (used && !rules.units[field]) fail(`${at}/units/${field} is needed by the seg basis or a sufficiency minimum`);
    }
    for (const [name, groups] of Object.entries(rules.seg.groups) as [string, SegGroup[]][]) {
      groups.forEach((g, i) => {
        const last = i === groups.length - 1;
        if (last !== (g.max === null)) fail(`${at}/seg/groups/${name}/${i}: only the last group is open-ended`);
        if (g.max !== null && g.max < g.min) fail(`${at}/seg/groups/${name}/${i}: max below min`);
        const prev = groups[i - 1];
        if (prev && prev.max !== null && g.min !== prev.max + 1)
          fail(`${at}/seg/groups/${name}/${i}: groups must be contiguous`);
      });
      // A carrier that meets the minimum on the SEG basis must fall into a group.
      const min = rules.sufficiency[`min_${rules.seg.basis}`];
      if (min === null || groups[0]!.min > min)
        fail(
          `${at}/seg/groups/${name}: the first group must start at or below the sufficiency minimum on ${rules.seg.basis}`,
        );
    }
  }
}

/** Reads, schema-checks and checks the invariants of a methodology file. */
export function loadMethodology(path = METHODOLOGY_PATH): Methodology {
  const doc: unknown = JSON.parse(readFileSync(path, 'utf8'));
  schemas().assert('carriers/methodology', doc, path);
  const m = doc as Methodology;
  assertMethodology(m, path);
  return m;
}

let loaded: Methodology | undefined;
/** The project's methodology file, loaded and validated once per process. */
export function methodology(): Methodology {
  loaded ??= loadMethodology();
  return loaded;
}

export const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `date` moved back `months` calendar months, the day clamped to the target month's end (08-31 − 6 → 02-28). */
export function toMonthsBefore(date: string, months: number): string {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`not an ISO date: ${date}`);
  const total = Number(match[1]) * 12 + Number(match[2]) - 1 - months;
  const y = Math.floor(total / 12);
  const mo = total - y * 12 + 1;
  const lastDay = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return `${pad(y, 4)}-${pad(mo)}-${pad(Math.min(Number(match[3]), lastDay))}`;
}
