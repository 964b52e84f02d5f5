// The years each file covers, and values (names, owners, postal codes) that change from one year to the next.

export const FIRST_ONTARIO_YEAR = 2010;
export const FIRST_FEDERAL_YEAR = 2004;
export const LAST_YEAR = 2024;
export const INDICATOR_YEAR = 2023;
/** The year Ontario's planted renamed facility changes its name (old name 2010–2017, new one 2018–2024). */
export const RENAME_YEAR = 2018;
/** The federal threshold fell from 50 kt to 10 kt in 2017 (README §3). */
export const FEDERAL_THRESHOLD_DROP = 2017;

/** Spellings that vary by year: the last span starting at or before the year applies. */
export type Spans<T> = readonly (readonly [number, T])[];
export function at<T>(spans: Spans<T>, year: number): T {
  let out = spans[0]![1];
  for (const [from, v] of spans) if (from <= year) out = v;
  return out;
}
export const years = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
