// Facility records (docs/contracts/facilities.md, "Facility record"): names, series, totals and delta,
// from the rows of every source id a spine record holds. Pure.
import { round } from '../../contract/core/values.ts';
import { toTitleCase } from '../../contract/facilities/normalize-names.ts';
import type { BaseRecord, Program, Totals } from '../../contract/facilities/record.ts';
import { toCoordinates } from './coordinates.ts';
import { toByGas } from './gases.ts';
import type { Component } from './link.ts';
import type { FederalRow, OntarioRow } from './rows.ts';

/** Provincial total on the federal basis: CO2 from biomass subtracted (the federal total excludes it). */
export function toAdjustedOntario(row: Pick<OntarioRow, 'total' | 'biomass'>): number | null {
  return row.total === null ? null : round(row.total - (row.biomass ?? 0));
}

/** Sums per year; a year with no value at all stays null (null is not zero). */
function sumByYear<T extends { year: number }>(
  rows: readonly T[],
  value: (r: T) => number | null,
): Map<number, number | null> {
  const out = new Map<number, number | null>();
  for (const r of rows) {
    const v = value(r);
    const prev = out.get(r.year);
    out.set(r.year, v === null ? (prev ?? null) : round((prev ?? 0) + v));
  }
  return out;
}

/** Distinct names, newest first (a name used in several years counts at its latest). */
function namesNewestFirst(rows: readonly { year: number; name: string }[]): string[] {
  const latest = new Map<string, number>();
  for (const r of rows) latest.set(r.name, Math.max(latest.get(r.name) ?? -Infinity, r.year));
  return [...latest].sort(([a, ya], [b, yb]) => yb - ya || (a < b ? -1 : a > b ? 1 : 0)).map(([n]) => n);
}

function newest<T extends { year: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => b.year - a.year);
}

/** The display city: the newest spelling with lower-case letters, else the newest one in title case. */
function displayCity(rows: readonly { year: number; city: string | null }[]): string | null {
  const cities = newest(rows)
    .map((r) => r.city)
    .filter((c): c is string => !!c);
  return cities.find((c) => /\p{Ll}/u.test(c)) ?? (cities[0] ? toTitleCase(cities[0]) : null);
}

export interface RecordInput {
  spineId: string;
  component: Component;
  ontario: readonly OntarioRow[];
  federal: readonly FederalRow[];
  year: number;
}

export function toBaseRecord({ spineId, component, ontario, federal, year }: RecordInput): BaseRecord {
  const program: Program =
    component.ontario.length && component.federal.length
      ? 'both'
      : component.ontario.length
        ? 'ontario_only'
        : 'federal_only';
  const onByYear = sumByYear(ontario, toAdjustedOntario);
  const fedByYear = sumByYear(federal, (r) => r.total);
  const years = [...new Set([...onByYear.keys(), ...fedByYear.keys()])].sort((a, b) => a - b);
  const series = years.map((y) => ({ year: y, ontario: onByYear.get(y) ?? null, federal: fedByYear.get(y) ?? null }));
  const named = [...newest(ontario), ...newest(federal)];
  return {
    spine_id: spineId,
    tier: program === 'both' ? 'anchored' : 'unmatched',
    program,
    name: named[0]?.name ?? spineId,
    city: displayCity([...ontario, ...federal]),
    names: { ontario: namesNewestFirst(ontario), federal: namesNewestFirst(federal) },
    source_ids: { ontario: [...component.ontario], federal: [...component.federal] },
    naics: newest(ontario).find((r) => r.naics)?.naics ?? newest(federal).find((r) => r.naics)?.naics ?? null,
    totals: { year, ontario: onByYear.get(year) ?? null, federal: fedByYear.get(year) ?? null },
    series,
    coordinates: toCoordinates(federal),
    identifiers: {
      npri_id: newest(federal).find((r) => r.npri_id)?.npri_id ?? null,
      business_number: newest(federal).find((r) => r.business_number)?.business_number ?? null,
      company: newest(federal).find((r) => r.company)?.company ?? null,
    },
    by_gas: toByGas(ontario, federal),
  };
}

/** The figure search and rankings sort by: federal total of the comparison year, else the adjusted provincial one. */
export function toEmissions(totals: Totals): number | null {
  return totals.federal ?? totals.ontario;
}
