// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * report.json: the snapshot date, how every input row was used (rows = used + the sum of dropped, per input), files ignored, counts of every issue kind and the first 10,000 issues.
 */
export interface CarriersBuildReport {
  /**
   * What makes the build less useful than it looks, in words: for example an input file with a header and no rows (its inspections, violations or crashes are then missing from every profile), or an SMS input the build had no row of at all, as in a census-only build (the profiles' data_gaps then list it, and what rests on it is null). Also printed by the build and the nightly job.
   */
  warnings: string[];
  data_as_of: string;
  inputs: {
    file: string;
    kind:
      | "census"
      | "inspection"
      | "violation"
      | "crash"
      | "li_carrier"
      | "authority_history"
      | "insurance"
      | "insurance_history"
      | "revocation"
      | "oos_order";
    encoding: string;
    rows: number;
    used: number;
    dropped: {
      [k: string]: number | undefined;
    };
  }[];
  ignored: {
    file: string;
    reason: string;
  }[];
  issue_counts: {
    [k: string]: number | undefined;
  };
  /**
   * @maxItems 10000
   */
  issues: {
    file: string;
    record: number;
    kind: string;
    message: string;
    dropped: boolean;
  }[];
}
