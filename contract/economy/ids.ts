// Series ids (docs/contracts/economy.md, "Registry"): what one looks like, and the one order every list of
// series is in.

/** Upper case letters, digits and underscores, starting with a letter (the contract's `CPI_ALL_ITEMS`). */
const SERIES_ID = /^[A-Z][A-Z0-9_]*$/;

export function isSeriesId(s: string): boolean {
  return s.length <= 64 && SERIES_ID.test(s);
}

/** Code-unit order, the same in every locale. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortById<T extends { id: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => compareIds(a.id, b.id));
}
