// The SMS methodology as data: `data/carriers/sms-methodology.json`, validated against `carriers/methodology`
// once per process. Every number the ranking uses lives in that reviewed file, which cites the methodology
// section or reference note behind it (docs/reference/sms-methodology.md); the build ranks by it
// (pipeline/carriers/methodology.ts) and explain and export read it back.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemas } from '../core/schemas.ts';
import type { SMSMethodologyData } from '../types/carriers/methodology.ts';
import { BASICS, type Basic } from './basics.ts';

export const METHODOLOGY_PATH = fileURLToPath(new URL('../../data/carriers/sms-methodology.json', import.meta.url));

/** The shape of `data/carriers/sms-methodology.json`, generated from its schema (`carriers/methodology`). */
export type Methodology = SMSMethodologyData;
export type Segment = Methodology['segments']['default'];
export type CarrierType = Methodology['carrier_types']['order'][number];
export type BasicRules = Methodology['basics'][Basic];
export type MeasureKind = BasicRules['measure'];
/** Which count of `CarrierAggregate.basics[b]` a rule reads. */
export type CountField = BasicRules['seg']['basis'];
export type Noun = BasicRules['units']['relevant'];
/** A safety event group: inclusive bounds, `max` null for the open-ended last group. */
export type SegGroup = { min: number; max: number | null };
export type ThresholdRow = Methodology['thresholds'][CarrierType];
export type UfRow = Methodology['utilization_factor']['rows'][Segment][number];

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
