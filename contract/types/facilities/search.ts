// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/v1/search: total counts every match; results are the page from offset, at most limit of them, in the order sort names (by default emissions descending, facilities with none last), ties by spine_id. With year, every figure (totals, emissions, delta) is that year's. With facets, the counts of each named facet's values among all matches.
 */
export interface SearchResults {
  total: number;
  limit: number;
  offset: number;
  results: {
    spine_id: string;
    name: string;
    city: string | null;
    /**
     * anchored: normalized name and city equal between programs in some year.
     */
    tier: "anchored" | "unmatched";
    program: "both" | "ontario_only" | "federal_only";
    /**
     * The facility's six-digit NAICS code (newest Ontario, else federal), or null.
     */
    naics: string | null;
    totals: Totals;
    /**
     * Federal total of the answer's year where present, else the biomass-adjusted provincial total.
     */
    emissions: number | null;
    /**
     * Provincial minus federal for the answer's year; null unless both totals exist.
     */
    delta: null | {
      year: number;
      tonnes: number;
      /**
       * tonnes / federal × 100, rounded to 2 decimals.
       */
      pct: number;
    };
    flags: Flags;
    /**
     * Where the facility is, in decimal degrees (WGS 84, as the federal files give them): from the newest federal row with usable coordinates (the emissions-by-gas file before the indicator table in the same year); null where no input locates it (linear facilities such as pipelines have none, the indicator table writes 0, 0 for unknown). Coordinates that are not numbers, out of range or outside Ontario are left out and counted in the build's warnings.
     */
    coordinates: null | {
      latitude: number;
      longitude: number;
      /**
       * The program whose input gave them; Ontario's registry files carry no coordinates today.
       */
      source: "federal" | "ontario";
    };
  }[];
  /**
   * Present when the query asks for facets: each named facet (datasette's facet_results), keys in the order tier, program, naics2, city, flags.
   */
  facets?: {
    tier?: Facet;
    program?: Facet;
    naics2?: Facet;
    city?: Facet;
    flags?: Facet;
  };
}
/**
 * The answer's year's totals: the year parameter's, else the comparison year's.
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
/**
 * The record's flags without their reasons (GET /facility/{id} has them).
 *
 * This interface was referenced by `SearchResults`'s JSON-Schema
 * via the `definition` "flags".
 */
export interface Flags {
  methane: boolean;
  anomaly: boolean;
}
/**
 * This interface was referenced by `SearchResults`'s JSON-Schema
 * via the `definition` "facet".
 */
export interface Facet {
  name: "tier" | "program" | "naics2" | "city" | "flags";
  /**
   * As datasette's facet_results: a facet over one column's values.
   */
  type: "column";
  /**
   * Most frequent first, ties by value; values no match has are left out, as are facilities without a value (no NAICS code, no city). For flags, a facility counts once for each flag it carries.
   *
   * @maxItems 30
   */
  results: {
    /**
     * A value of the facet's filter parameter: tier, program, naics (the 2-digit sector), city (the display spelling), flag.
     */
    value: string;
    /**
     * What to show: the value, or for naics2 the sector's code and name ("32 Manufacturing").
     */
    label: string;
    /**
     * Matches with this value, before paging.
     */
    count: number;
    /**
     * Whether the query filters by this value already.
     */
    selected: boolean;
  }[];
  /**
   * More than 30 values had matches: the rarest were left out.
   */
  truncated: boolean;
}
