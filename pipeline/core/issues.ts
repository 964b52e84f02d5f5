// The data-quality issue every normalizer returns instead of throwing. Issues are
// collected into each service's issues.json build report; only broken invariants throw.

export interface RowIssue {
  file: string;
  record: number;
  /** Why the row was dropped or changed: `invalid_row`, `invalid_value`, `missing_value`, `unknown_basic`, … */
  kind: string;
  message: string;
  /** True when the row was not used at all. */
  dropped: boolean;
}

/** A typed row and what was wrong with its raw text, or only the issues when the row was dropped. */
export type Normalized<T> = { row: T; issues: RowIssue[] } | { row?: undefined; issues: RowIssue[] };

export function rowIssue(file: string, record: number, kind: string, message: string, dropped: boolean): RowIssue {
  return { file, record, kind, message, dropped };
}
