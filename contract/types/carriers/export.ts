// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/carrier/{carrier_id}/export?format=json (premium), sent as an attachment `carrier-<id>.json`: the carrier's profile, its inspection and crash counts by calendar month over the measurement window, and every inspection (with its violations) and crash of the window (docs/contracts/carriers.md, "Export").
 */
export interface CarrierExportJSON {
  profile: CarrierProfile;
  /**
   * Counts of the inspections and crashes inside the window (the same events as profile.inspections.total and profile.crashes.total), by the calendar month of the event.
   */
  monthly: {
    /**
     * Length of the window in months (profile.inspections.window_months).
     */
    window_months: number;
    /**
     * First day inside the window: window_months calendar months before `to`.
     */
    from: string;
    /**
     * Last day inside the window: profile.data_as_of.
     */
    to: string;
    /**
     * Every calendar month the window touches, oldest first, zeros included (null where profile.data_gaps says the input was missing): window_months + 1 entries, since the window starts and ends part-way through a month.
     *
     * @minItems 2
     */
    months: {
      /**
       * YYYY-MM.
       */
      month: string;
      /**
       * Inspections dated in this month and inside the window; null when the build had no SMS inspection input (profile.data_gaps).
       */
      inspections: number | null;
      /**
       * Crashes dated in this month and inside the window, not-preventable ones included; null when the build had no SMS crash input (profile.data_gaps).
       */
      crashes: number | null;
    }[];
  };
  /**
   * Every inspection of the window, newest first, each with the violations it cited: what GET /api/carrier/{carrier_id}/inspections lists, all on one page. Null when the build had no SMS inspection and no violation input. Left out by a build made before the inspection lists.
   */
  inspections?: Inspection[] | null;
  /**
   * Every crash of the window, newest first, as GET /api/carrier/{carrier_id}/inspections lists them; null when the build had no SMS crash input. Left out by a build made before the inspection lists.
   */
  crashes?: Crash[] | null;
}
/**
 * Exactly what GET /api/carrier/{carrier_id} answers.
 */
export interface CarrierProfile {
  /**
   * USDOT number.
   */
  carrier_id: number;
  legal_name: string;
  dba_name: string | null;
  city: string | null;
  state: string | null;
  /**
   * As reported on the census (an outlier fleet is shown as reported but not used to normalize).
   */
  power_units: number | null;
  drivers: number | null;
  /**
   * Latest known vehicle miles travelled: recent_mileage/recent_mileage_year when the year is set, else mcs150_mileage/mcs150_mileage_year; null when neither is known (the census writes 0,0 for unknown).
   */
  mileage: null | {
    miles: number;
    year: number;
  };
  /**
   * CARRIER_OPERATION: A interstate, B intrastate hazmat, C intrastate non-hazmat; null when the census gives none it knows.
   */
  carrier_operation: {
    code: "A" | "B" | "C";
    label: "Interstate" | "Intrastate hazmat" | "Intrastate non-hazmat";
  } | null;
  physical_address: Address;
  /**
   * MAILING_*; null when the census has no mailing address at all.
   */
  mailing_address: Address1 | null;
  /**
   * TELEPHONE as the census writes it. The census's e-mail address is never read or shown.
   */
  telephone: string | null;
  /**
   * When the carrier last filed its MCS-150 (registration update).
   */
  mcs150_date: string | null;
  /**
   * MCS150_MILEAGE for MCS150_MILEAGE_YEAR, as filed; null when either is empty or the year is 0.
   */
  mcs150_mileage: {
    miles: number;
    year: number;
  } | null;
  /**
   * The MCS-150 was filed more than 24 months before `data_as_of` (FMCSA requires an update every 24 months, 49 CFR 390.19); null when the census gives no date.
   */
  mcs150_outdated: boolean | null;
  /**
   * ADD_DATE: when the carrier entered FMCSA's registry (MCMIS).
   */
  date_added: string | null;
  /**
   * The census's operation classification flags that are set (Y or true), in the census's order; `other` for OP_OTHER set or given as text.
   */
  operation_classification: (
    | "authorized_for_hire"
    | "exempt_for_hire"
    | "private_property"
    | "private_passenger_business"
    | "private_passenger_nonbusiness"
    | "migrant"
    | "us_mail"
    | "federal_government"
    | "state_government"
    | "local_government"
    | "indian_tribe"
    | "other"
  )[];
  /**
   * OP_OTHER when the census gives it as text (`FARM`, `TOW TRUCK`) rather than a flag.
   */
  operation_other: string | null;
  /**
   * HM_FLAG: the carrier is subject to the placardable hazmat threshold.
   */
  hazmat_flag: boolean | null;
  /**
   * PC_FLAG: the carrier is subject to the passenger carrier threshold.
   */
  passenger_flag: boolean | null;
  /**
   * The dockets the carrier holds now, in docket order; a docket that another carrier number held before is listed under its current holder only (its history is in `authority`). [] without L&I input.
   *
   * Items: FMCSA's docket form: prefix and at least six digits (`MC001515`).
   *
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "docket".
   */
  dockets: string[];
  /**
   * May the carrier operate at all? What a broker checks before safety (docs/api-carriers.md, "May I hire them?").
   */
  operating_status: {
    /**
     * False when an out-of-service order is in effect, or when the carrier's operation needs operating authority (for hire, interstate) and none of its dockets has it active, or when the insurance it must file is not on file. True when none of those holds on the inputs the build had. Null when the build had neither L&I nor out-of-service-order input: nothing is known.
     */
    allowed_to_operate: boolean | null;
    /**
     * Why, in the order the checks run: each reason that makes `allowed_to_operate` false, then what was not checked (`not_checked`: an input the build lacked). [] when allowed on every check.
     */
    reasons: {
      code:
        | "out_of_service_order"
        | "authority_revoked"
        | "no_active_authority"
        | "authority_pending"
        | "insurance_not_on_file"
        | "not_checked";
      detail: string;
    }[];
  };
  /**
   * Operating authority per docket and kind (common, contract, broker), by docket then kind; null when the build had no L&I carrier, authority history or revocation input (data_gaps lists `authority`).
   */
  authority: Authority[] | null;
  /**
   * Insurance filings on record and whether the required minimum is on file; null when the build had no L&I insurance input (data_gaps lists `insurance`).
   */
  insurance: Insurance | null;
  /**
   * FMCSA out-of-service orders against the carrier, newest first; null when the build had no out-of-service-order input (data_gaps lists `out_of_service_orders`).
   */
  out_of_service_orders: OosOrder[] | null;
  /**
   * The safety event group of the carrier's Unsafe Driving category if ranked, else of its first ranked category, else the group of carriers ranked in no category (id `insufficient`).
   */
  peer_group: {
    /**
     * `<basic>:<group>`, `<basic>:<segment>:<group>` for the BASICs segmented into combination and straight, or `insufficient`.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "seg_id".
     */
    id: string;
    label: string;
    basis: string;
    /**
     * Carriers in the group.
     */
    size: number;
  };
  /**
   * Inspections in the window; each count is null when the build had no SMS inspection input (data_gaps lists `inspections`).
   */
  inspections: {
    window_months: number;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    total: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    driver: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    vehicle: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    hazmat: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    with_violations: number | null;
  };
  /**
   * Crashes in the window; each count is null when the build had no SMS crash input (data_gaps lists `crashes`).
   */
  crashes: {
    window_months: number;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    total: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    fatal: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    injury: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    tow_away: number | null;
  };
  /**
   * Ratios over the window, 3 decimals; null when the denominator is 0 or unknown, or when an input they rest on is missing (data_gaps): the out-of-service rates rest on the inspections, violations_per_inspection on the inspections and violations, crashes_per_power_unit on the crashes.
   */
  rates: {
    /**
     * Vehicle out-of-service inspections / vehicle inspections.
     */
    vehicle_oos_rate: number | null;
    /**
     * Driver out-of-service inspections / driver inspections.
     */
    driver_oos_rate: number | null;
    /**
     * Hazmat out-of-service inspections / hazmat inspections.
     */
    hazmat_oos_rate: number | null;
    /**
     * Violations in the six inspection BASICs / inspections.
     */
    violations_per_inspection: number | null;
    /**
     * Crashes / power units; null for an outlier fleet.
     */
    crashes_per_power_unit: number | null;
  };
  /**
   * The out-of-service rates over every inspection of every carrier in the build's window (SAFER's national averages), to read the carrier's own rates against, with the inspections each rests on. A rate is null when its count is 0. Without SMS inspection input (data_gaps lists `inspections`), the rates and counts are null.
   */
  national: {
    /**
     * Vehicle out-of-service inspections / vehicle inspections, all carriers.
     */
    vehicle_oos_rate: number | null;
    /**
     * Driver out-of-service inspections / driver inspections, all carriers.
     */
    driver_oos_rate: number | null;
    /**
     * Hazmat out-of-service inspections / hazmat inspections, all carriers.
     */
    hazmat_oos_rate: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    vehicle_inspections: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    driver_inspections: number | null;
    /**
     * A count; null when the SMS input it rests on was missing from the build (data_gaps).
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "count_or_gap".
     */
    hazmat_inspections: number | null;
  };
  /**
   * The seven BASICs in a fixed order.
   */
  categories: Category[];
  /**
   * The categories' percentiles by category.
   */
  percentiles: {
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    unsafe_driving: number | null;
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    hos_compliance: number | null;
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    driver_fitness: number | null;
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    controlled_substances: number | null;
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    vehicle_maintenance: number | null;
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    hazmat: number | null;
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    crash_indicator: number | null;
  };
  /**
   * Exactly three: the categories with the highest percentiles, then those with the most violations (percentile null).
   *
   * @minItems 3
   * @maxItems 3
   */
  top_risks: {
    /**
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "basic".
     */
    category:
      | "unsafe_driving"
      | "hos_compliance"
      | "driver_fitness"
      | "controlled_substances"
      | "vehicle_maintenance"
      | "hazmat"
      | "crash_indicator";
    label: string;
    /**
     * Percentile rank in the safety event group, 0–100, higher is worse.
     *
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "percentile".
     */
    percentile: number | null;
    /**
     * Why the category is listed, with its figures.
     */
    reason: string;
  }[];
  /**
   * Snapshot date of the FMCSA data.
   */
  data_as_of: string;
  /**
   * The inputs the build did not have, in this order: the SMS inputs `inspections`, `violations`, `crashes` (what rests on one is null, never 0: its counts and rates, and the BASICs measured from it), then the registry inputs `authority` (no L&I carrier, authority history or revocation file), `insurance` (no L&I insurance file), `out_of_service_orders` (no out-of-service-order file), each making its profile field null. [] when it had all.
   *
   * @maxItems 6
   *
   * Items: This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "data_gap".
   */
  data_gaps: ("inspections" | "violations" | "crashes" | "authority" | "insurance" | "out_of_service_orders")[];
  methodology: {
    version: string;
    note: "Percentiles are recomputed from FMCSA public data; they are not FMCSA's published values.";
  };
  /**
   * FMCSA's disclaimer for SMS data, word for word (contract/core/licences.ts): the figures here rest on FMCSA's SMS data, and neither they nor FMCSA's own results are a safety rating.
   */
  disclaimer: "The SMS results displayed on the SMS website are not intended to imply any federal safety rating of the carrier pursuant to 49 USC 31144. Readers should not draw conclusions about a carrier's overall safety condition simply based on the data displayed in this system. Unless a motor carrier in the SMS has received an UNSATISFACTORY safety rating pursuant to 49 CFR Part 385, or has otherwise been ordered to discontinue operations by the FMCSA, it is authorized to operate on the nation's roadways.";
  /**
   * Each BASIC's percentile and alert at each of the last 24 builds of the kept change history that ranked or alerted the carrier, oldest first (docs/contracts/changes.md); empty for a carrier no such build ranked. Every answer of GET /api/carrier/{carrier_id} and get_carrier_profile has it; the build's stored profile does not (it is added from the change record as the profile is served).
   *
   * @maxItems 24
   */
  trend?: {
    data_version: string;
    built_at: string;
    /**
     * Each of the seven BASICs by name.
     */
    categories: {
      [k: string]:
        | {
            /**
             * Percentile rank in the safety event group, 0–100, higher is worse.
             *
             * This interface was referenced by `CarrierProfile`'s JSON-Schema
             * via the `definition` "percentile".
             */
            percentile: number | null;
            alert: boolean;
          }
        | undefined;
    };
  }[];
}
/**
 * PHY_STREET, PHY_CITY, PHY_STATE, PHY_ZIP, PHY_COUNTRY.
 */
export interface Address {
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}
/**
 * An address as the census writes it; each empty field null. `zip` is text (`08861`, `34604-1486`).
 *
 * This interface was referenced by `CarrierProfile`'s JSON-Schema
 * via the `definition` "address".
 */
export interface Address1 {
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}
/**
 * This interface was referenced by `CarrierProfile`'s JSON-Schema
 * via the `definition` "authority".
 */
export interface Authority {
  /**
   * FMCSA's docket form: prefix and at least six digits (`MC001515`).
   *
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "docket".
   */
  docket: string;
  kind: "common" | "contract" | "broker";
  /**
   * active: granted and in effect; pending: applied for, not granted yet; revoked: a revocation took effect (involuntary, or voluntary at the carrier's request); inactive: held once, not in effect now for another reason (dismissed, withdrawn, reinstatement pending).
   */
  status: "active" | "pending" | "inactive" | "revoked";
  /**
   * When the status took effect, where the inputs say.
   */
  effective_date: string | null;
  /**
   * The latest revocation of this docket and kind; null when none is on record.
   */
  revocation: {
    /**
     * As FMCSA words it: `INVOLUNTARY REVOCATION`, `VOLUNTARY REVOCATION`.
     */
    type: string;
    /**
     * When the first revocation letter was sent.
     */
    serve_date: string | null;
    /**
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "date_or_null".
     */
    effective_date: string | null;
  } | null;
  /**
   * The authority history (AuthHist), newest first.
   */
  history: {
    action: string;
    /**
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "date_or_null".
     */
    date: string | null;
    disposition: string | null;
    /**
     * This interface was referenced by `CarrierProfile`'s JSON-Schema
     * via the `definition` "date_or_null".
     */
    disposition_date: string | null;
    /**
     * The carrier number the action was under, when the docket moved between numbers.
     */
    carrier_id: number | null;
  }[];
}
/**
 * This interface was referenced by `CarrierProfile`'s JSON-Schema
 * via the `definition` "insurance".
 */
export interface Insurance {
  /**
   * What the L&I carrier file says must be on file; null without that file.
   */
  required: {
    /**
     * Bodily injury and property damage liability the carrier must file, in dollars (49 CFR 387); null when none is required.
     */
    bipd: number | null;
    cargo: boolean;
    /**
     * A broker or freight forwarder surety bond or trust fund (BMC-84/85).
     */
    bond: boolean;
  } | null;
  /**
   * Every required filing is active and the BIPD coverage on file reaches the required amount; null when what is required is not known (no L&I carrier file).
   */
  minimum_on_file: boolean | null;
  /**
   * Active and pending filings, then cancelled ones from the history, each newest first.
   */
  filings: Filing[];
}
/**
 * This interface was referenced by `CarrierProfile`'s JSON-Schema
 * via the `definition` "filing".
 */
export interface Filing {
  /**
   * FMCSA's docket form: prefix and at least six digits (`MC001515`).
   *
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "docket".
   */
  docket: string;
  type: "bipd" | "cargo" | "bond" | "trust_fund" | "other";
  /**
   * FMCSA form code: 91X, 91, 82 (BIPD), 34 (cargo), 84 (bond), 85 (trust fund).
   */
  form: string | null;
  insurer: string | null;
  policy_number: string | null;
  /**
   * Underlying limit, dollars.
   */
  coverage_from: number | null;
  /**
   * Maximum coverage, dollars.
   */
  coverage_to: number | null;
  /**
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "date_or_null".
   */
  effective_date: string | null;
  /**
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "date_or_null".
   */
  cancellation_date: string | null;
  status: "active" | "pending" | "cancelled";
}
/**
 * This interface was referenced by `CarrierProfile`'s JSON-Schema
 * via the `definition` "oos_order".
 */
export interface OosOrder {
  date: string;
  /**
   * FMCSA's reason, as published (e.g. `90 day failure to pay fine`).
   */
  reason: string | null;
  status: "active" | "rescinded";
  /**
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "date_or_null".
   */
  rescinded_date: string | null;
}
/**
 * This interface was referenced by `CarrierProfile`'s JSON-Schema
 * via the `definition` "category".
 */
export interface Category {
  /**
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "basic".
   */
  category:
    | "unsafe_driving"
    | "hos_compliance"
    | "driver_fitness"
    | "controlled_substances"
    | "vehicle_maintenance"
    | "hazmat"
    | "crash_indicator";
  label: string;
  /**
   * SMS measure (0 = no violations; null when it cannot be computed, e.g. unknown power units, or when an input it rests on is missing: data_gaps).
   */
  measure: number | null;
  /**
   * Percentile rank in the safety event group, 0–100, higher is worse.
   *
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "percentile".
   */
  percentile: number | null;
  /**
   * Intervention threshold for the carrier's type (general, passenger, hazmat).
   *
   * This interface was referenced by `CarrierProfile`'s JSON-Schema
   * via the `definition` "threshold".
   */
  threshold: number;
  /**
   * percentile ≥ threshold; false when the percentile is null.
   */
  alert: boolean;
  /**
   * A count; null when the SMS input it rests on was missing from the build (data_gaps).
   */
  violations: number | null;
  /**
   * Id of the category's safety event group; null below the first group, or when an input the category rests on is missing (data_gaps).
   */
  peer_group: string | null;
  sufficient_data: boolean;
  /**
   * Present when FMCSA publishes no percentile for the category and the percentile is withheld.
   */
  percentile_note?: "not published by FMCSA";
  /**
   * When the figures fall if nothing new happens: the coming dates (within the next 24 months) on which the time weight of one of the category's inspections, violations or crashes falls (3 → 2 → 1 → out of the window) and the category's measure, ranking or percentile changes with it, in date order: every such date on which the alert, the data sufficiency or the measure's reaching 0 changes, and otherwise the first such date of each calendar month (a carrier with hundreds of inspections has a weight falling almost every day), with the measure the carrier would then have and its percentile against this build's peer groups (the carrier's own measure left out). The first step with `alert: false` after an alert is the day the alert clears. Null when the category has no measure today; [] when nothing will change (a measure of 0 stays 0). docs/api-carriers.md, "Step-down", says how.
   */
  step_down: Step[] | null;
}
/**
 * This interface was referenced by `CarrierProfile`'s JSON-Schema
 * via the `definition` "step".
 */
export interface Step {
  /**
   * The first day the lower time weights apply.
   */
  date: string;
  /**
   * The measure from that day, with no new event.
   */
  measure: number | null;
  /**
   * Percentile rank in the safety event group, 0–100, higher is worse.
   */
  percentile: number | null;
  /**
   * percentile ≥ today's threshold.
   */
  alert: boolean;
  sufficient_data: boolean;
}
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
  /**
   * 3 within 6 months of `data_as_of`, 2 within 12, 1 within 24 (SMS time weighting).
   */
  time_weight: 1 | 2 | 3;
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
  /**
   * 3 within 6 months of `data_as_of`, 2 within 12, 1 within 24 (SMS time weighting).
   */
  time_weight: 1 | 2 | 3;
  /**
   * The violation put the driver or vehicle out of service (its severity counts the OOS weight on top).
   */
  oos: boolean;
}
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
  /**
   * 3 within 6 months of `data_as_of`, 2 within 12, 1 within 24 (SMS time weighting).
   */
  time_weight: 1 | 2 | 3;
}
