// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * report.json: how every input row was used, the multi-id groups, every rejected near-miss with its reason, id carry-forward, and every data-quality issue. For each input, rows = used + the sum of dropped.
 */
export interface BuildReport {
  year: number;
  /**
   * What makes the build less useful than it looks, in words: for example no facility with a figure for the comparison year (then every total, delta and the stats' comparison are empty). Also printed by the build and the nightly job.
   */
  warnings: string[];
  inputs: {
    file: string;
    kind: "ontario_ghg" | "ghgrp_by_gas" | "ghgrp_indicator" | "ewrb";
    encoding: string;
    bom: boolean;
    rows: number;
    used: number;
    dropped: {
      [k: string]: number | undefined;
    };
    malformed: number;
    blank: number;
    undecodable_bytes: number;
  }[];
  ignored: {
    file: string;
    reason: string;
  }[];
  /**
   * Spine records holding more than one Ontario id or more than one federal id, with the name-city pairs that joined them.
   */
  groups: {
    spine_id: string;
    ontario: string[];
    federal: string[];
    evidence: {
      name: string;
      city: string;
      ontario: string[];
      federal: string[];
    }[];
  }[];
  near_misses: {
    kind: "same_name_other_city" | "similar_name_same_city";
    ontario_id: string;
    federal_id: string;
    ontario_name: string;
    federal_name: string;
    ontario_city: string;
    federal_city: string;
    similarity: number;
    reason: string;
    ontario_spine_id: string;
    federal_spine_id: string;
  }[];
  /**
   * Links the identity rule allows but the build refuses: they would put two Ontario ids reporting in one year together with two federal ids reporting in one year in one facility (two facilities chained through a name one used in other years). Links whose name the two ids used closest in time are taken first.
   */
  refused_links: {
    ontario_id: string;
    federal_id: string;
    /**
     * The normalized name both use.
     */
    name: string;
    /**
     * The normalized city both use.
     */
    city: string;
    reason: string;
    ontario_spine_id: string;
    federal_spine_id: string;
  }[];
  ids: {
    carried: number;
    issued: string[];
    retired: string[];
  };
  issues: {
    file: string;
    record: number;
    kind: string;
    message: string;
    dropped: boolean;
  }[];
  /**
   * The whole-registry downloads written beside the documents: api/v1/emissions.csv and api/v1/facilities.sqlite (docs/api-facilities.md, "Bulk downloads (facilities)").
   */
  downloads: {
    emissions_csv: {
      /**
       * Records after the header: one per facility, year, program and gas (or `total`).
       */
      rows: number;
      /**
       * The file's size, uncompressed.
       */
      bytes: number;
    };
    sqlite: {
      /**
       * The database file's size, uncompressed.
       */
      bytes: number;
      /**
       * Milliseconds spent making the database (tables, rows, VACUUM), on the build's clock: a pinned clock, as in tests, gives 0, so the report stays the same bytes.
       */
      build_ms: number;
      /**
       * Rows per table of the database, meta left out.
       */
      rows: {
        facilities: number;
        names: number;
        ids: number;
        totals: number;
        gases: number;
        flag_reasons: number;
      };
    };
  };
}
