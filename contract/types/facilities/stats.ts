// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/v1/stats: match counts, the funnel from raw inputs to anchored facilities, top emitters and program agreement for the comparison year.
 */
export interface Stats {
  year: number;
  match: {
    facilities: number;
    anchored: number;
    unmatched: number;
    both: number;
    ontario_only: number;
    federal_only: number;
    /**
     * anchored / facilities, 4 decimals.
     */
    anchored_rate: number;
  };
  /**
   * From the raw inputs to anchored. A stage with narrowing true is no larger than the narrowing stage before it; other stages are context (federal side, rejected near-misses).
   */
  funnel: {
    stage: string;
    count: number;
    description: string;
    narrowing: boolean;
  }[];
  /**
   * @maxItems 30
   */
  top_emitters: {
    rank: number;
    spine_id: string;
    name: string;
    city: string | null;
    emissions: number;
    program: "both" | "ontario_only" | "federal_only";
  }[];
  agreement: {
    year: number;
    /**
     * Facilities with both totals in the comparison year.
     */
    compared: number;
    /**
     * Cumulative: |delta.pct| ≤ 1.
     */
    within_1pct: number;
    within_5pct: number;
    within_10pct: number;
    over_10pct: number;
    median_abs_pct: number | null;
    /**
     * The 10 largest absolute disagreements in tonnes.
     *
     * @maxItems 10
     */
    largest: {
      spine_id: string;
      name: string;
      tonnes: number;
      pct: number;
    }[];
  };
}
