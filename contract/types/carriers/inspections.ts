// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * 3 within 6 months of `data_as_of`, 2 within 12, 1 within 24 (SMS time weighting).
 *
 * This interface was referenced by `CarrierInspectionsAndCrashes`'s JSON-Schema
 * via the `definition` "time_weight".
 */
export type TimeWeight = 1 | 2 | 3;

/**
 * GET /api/carrier/{carrier_id}/inspections: the carrier's inspections in the build's 24-month window, newest first (date, then inspection id), paged by `limit` and `offset`, each with the violations it cited; and every crash of the window, newest first. These are the events the profile's measures and step-down rest on: time weights are those of `data_as_of`, a violation code cited more than once in one inspection is listed once at its highest severity (as the measure counts it), and a violation in no BASIC we rank is not listed.
 */
export interface CarrierInspectionsAndCrashes {
  carrier_id: number;
  data_as_of: string;
  window_months: number;
  /**
   * Inspections in the window (every page); null when the build had no SMS inspection and no violation input.
   */
  total: number | null;
  limit: number;
  offset: number;
  /**
   * This page of inspections; null when `total` is null.
   */
  inspections: Inspection[] | null;
  /**
   * Every crash of the window (one row per report and vehicle), newest first; null when the build had no SMS crash input (`data_gaps` lists `crashes`).
   */
  crashes: Crash[] | null;
  /**
   * The SMS inputs the build did not have, as the profile lists them.
   */
  data_gaps: ("inspections" | "violations" | "crashes")[];
}
/**
 * This interface was referenced by `CarrierInspectionsAndCrashes`'s JSON-Schema
 * via the `definition` "inspection".
 */
export interface Inspection {
  /**
   * SMS Input Unique_ID.
   */
  inspection_id: string;
  date: string;
  /**
   * Report_State: where the inspection took place.
   */
  state: string | null;
  /**
   * CVSA inspection level I–VIII.
   */
  level: number | null;
  time_weight: TimeWeight;
  /**
   * A driver, vehicle or hazmat out-of-service order came of it. Null for an inspection known only from its violations (its inspection row is not in the build): then its level, state and OOS counts are null too.
   */
  out_of_service: boolean | null;
  driver_oos: number | null;
  vehicle_oos: number | null;
  hazmat_oos: number | null;
  /**
   * The violations cited; null when the build had no SMS violation input.
   */
  violations: Violation[] | null;
}
/**
 * This interface was referenced by `CarrierInspectionsAndCrashes`'s JSON-Schema
 * via the `definition` "violation".
 */
export interface Violation {
  /**
   * Viol_Code, the regulation cited (e.g. `393.9TS`); '' when the row had none.
   */
  code: string;
  /**
   * Section_Desc as FMCSA writes it; null when absent.
   */
  description: string | null;
  basic:
    "unsafe_driving" | "hos_compliance" | "driver_fitness" | "controlled_substances" | "vehicle_maintenance" | "hazmat";
  /**
   * Severity_Weight, before the out-of-service add-on.
   */
  severity_weight: number;
  time_weight: TimeWeight;
  /**
   * The violation put the driver or vehicle out of service (its severity counts the OOS weight on top).
   */
  oos: boolean;
}
/**
 * This interface was referenced by `CarrierInspectionsAndCrashes`'s JSON-Schema
 * via the `definition` "crash".
 */
export interface Crash {
  report_number: string;
  date: string;
  state: string | null;
  fatalities: number;
  injuries: number;
  tow_away: boolean;
  hazmat_released: boolean;
  /**
   * FMCSA found the crash not preventable: counted, but not in the Crash Indicator measure.
   */
  not_preventable: boolean;
  /**
   * 1 tow-away, 2 injury or fatality, +1 hazmat release.
   */
  severity_weight: number;
  time_weight: TimeWeight;
}
