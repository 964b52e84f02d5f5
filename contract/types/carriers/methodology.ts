// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * The methodology section, reference note or URL the entry comes from.
 *
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "source".
 */
export type Source = string;
/**
 * An open review item: not confirmed from the primary methodology document.
 *
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "review".
 */
export type Review = string;
/**
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "basic".
 */
export type Basic =
  | "unsafe_driving"
  | "hos_compliance"
  | "driver_fitness"
  | "controlled_substances"
  | "vehicle_maintenance"
  | "hazmat"
  | "crash_indicator";
/**
 * Ascending max_vmt_per_pu; the last row has no upper bound.
 *
 * @minItems 1
 *
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "ufRows".
 */
export type UfRows = {
  /**
   * Inclusive upper bound; null: no bound.
   */
  max_vmt_per_pu: number | null;
  base: number;
  offset: number;
  /**
   * null: the factor is base.
   */
  divisor: number | null;
}[];
/**
 * Contiguous ascending groups; group n is SEG id `<basic>:n` (`<basic>:<segment>:n` when segmented), counted from 1.
 *
 * @minItems 1
 *
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "groups".
 */
export type Groups = {
  min: number;
  /**
   * Inclusive; null: no bound.
   */
  max: number | null;
}[];
/**
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "count".
 */
export type Count = number | null;
/**
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "percent".
 */
export type Percent = number;
/**
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "segment".
 */
export type Segment = "combination" | "straight";

/**
 * data/carriers/sms-methodology.json: the reviewed weights, safety event groups, sufficiency rules, thresholds and classification rules of the carrier ranking, tied to one version. Every entry cites its source; items not confirmed from the primary document carry a review field starting with [verify].
 */
export interface SMSMethodologyData {
  /**
   * Methodology version echoed in every profile (`methodology.version`).
   */
  version: string;
  title: string;
  /**
   * Echoed in every profile (`methodology.note`).
   */
  note: "Percentiles are recomputed from FMCSA public data; they are not FMCSA's published values.";
  /**
   * The FMCSA methodology document the entries cite.
   */
  document: {
    title: string;
    edition: string;
    url: string;
    source: Source;
    review?: Review;
  };
  /**
   * Time weight of an event by its age; events older than window_months weigh 0.
   */
  time_weights: {
    /**
     * Measurement window (months); also the profile's inspections/crashes window_months.
     */
    window_months: number;
    /**
     * Ascending max_age_months; the first band the age fits gives the weight. The last band ends at window_months.
     *
     * @minItems 1
     */
    bands: {
      /**
       * Inclusive upper bound of the age in calendar months.
       */
      max_age_months: number;
      weight: number;
    }[];
    /**
     * How age is counted, in words.
     */
    age_rule: string;
    source: Source;
    review?: Review;
  };
  /**
   * Violation severity: per-inspection cap per BASIC and the out-of-service add-on (applied by the aggregation).
   */
  severity: {
    inspection_cap: number;
    oos_add_on: number;
    rule: string;
    source: Source;
    review?: Review;
  };
  /**
   * Crash severity weights of the Crash Indicator.
   */
  crash_severity: {
    tow_away: number;
    injury_or_fatality: number;
    hazmat_release_add_on: number;
    /**
     * Crashes found not preventable (Crash Preventability Determination Program) are left out.
     */
    exclude_not_preventable: boolean;
    source: Source;
    review?: Review;
  };
  power_units: Rule;
  /**
   * Combination/straight segmentation of the BASICs normalized by power units.
   */
  segments: {
    applies_to: Basic[];
    /**
     * Combination when combination units are at least this share of power units.
     */
    combination_share_min: number;
    /**
     * Segment used when the combination share is unknown.
     */
    default: "combination" | "straight";
    default_reason: string;
    source: Source;
    review?: Review;
  };
  /**
   * Utilization factor by segment and vehicle miles travelled per average power unit.
   */
  utilization_factor: {
    /**
     * Where the VMT comes from.
     */
    vmt: string;
    formula: string;
    /**
     * Factor when no VMT is known.
     */
    no_vmt_factor: number;
    rows: {
      combination: UfRows;
      straight: UfRows;
    };
    source: Source;
    review?: Review;
  };
  /**
   * The seven BASICs, keyed as in the profile's categories.
   */
  basics: {
    unsafe_driving: BasicRules;
    hos_compliance: BasicRules;
    driver_fitness: BasicRules;
    controlled_substances: BasicRules;
    vehicle_maintenance: BasicRules;
    hazmat: BasicRules;
    crash_indicator: BasicRules;
  };
  /**
   * The two measure formulas, in words.
   */
  measures: {
    per_power_unit: Formula;
    per_relevant_inspection: Formula;
  };
  /**
   * Sufficiency rules that apply to every BASIC.
   */
  sufficiency: {
    no_violations: Rule1;
    critical_mass: {
      months: number;
      /**
       * Whether the ranking applies the rule.
       */
      applied: boolean;
      rule: string;
      source: Source;
      review?: Review;
    };
  };
  /**
   * Percentile rank within a safety event group.
   */
  percentiles: {
    formula: string;
    decimals: number;
    /**
     * Percentile of the only carrier of a group.
     */
    single_carrier: number;
    source: Source;
    review?: Review;
  };
  /**
   * Intervention thresholds (percentiles) by carrier type and BASIC.
   */
  thresholds: {
    general: ThresholdRow;
    passenger: ThresholdRow;
    hazmat: ThresholdRow;
    source: Source;
    review?: Review;
  };
  /**
   * Carrier type classification, which selects the thresholds.
   */
  carrier_types: {
    /**
     * The first type whose rule holds wins; general always holds.
     */
    order: ("passenger" | "hazmat" | "general")[];
    order_reason: string;
    passenger: {
      census_flag: "pc_flag";
      rule: string;
      source: Source;
      review?: Review;
    };
    hazmat: {
      census_flag: "hm_flag";
      min_placard_inspections_24m: number;
      min_placard_inspections_12m: number;
      min_share_of_inspections: number;
      rule: string;
      source: Source;
      review?: Review;
    };
    source: Source;
    review?: Review;
  };
  /**
   * Self-reported fleet sizes that cannot be right; a carrier matching any rule has unknown power units for normalization.
   */
  outlier_fleets: {
    /**
     * @minItems 1
     */
    rules: {
      id: string;
      /**
       * Flagged when power units exceed this…
       */
      power_units_over: number;
      /**
       * …and drivers (unknown counts as 0) are below this share of power units; null: whatever the drivers.
       */
      drivers_below_share: number | null;
      reason: string;
    }[];
    effect: string;
    source: Source;
    review?: Review;
  };
  /**
   * What FMCSA does not publish and how the profile says so.
   */
  public_display: {
    /**
     * The profile's percentile_note.
     */
    restricted_note: "not published by FMCSA";
    rule: string;
    source: Source;
    review?: Review;
  };
}
/**
 * How average power units are obtained.
 */
export interface Rule {
  rule: string;
  source: Source;
  review?: Review;
}
/**
 * One BASIC: label, measure kind, safety event groups and sufficiency minimums.
 *
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "basicRules".
 */
export interface BasicRules {
  /**
   * FMCSA's name of the BASIC, the profile's category label.
   */
  label: string;
  regulations: string;
  /**
   * false: FMCSA publishes no percentile for anyone; the profile hides ours unless SHOW_RESTRICTED_PERCENTILES=true.
   */
  public_percentile: boolean;
  /**
   * Denominator of the measure: average power units × utilization factor, or the time-weighted relevant inspections.
   */
  measure: "per_power_unit" | "per_relevant_inspection";
  /**
   * Nouns for the aggregate's counts: relevant (inspections, or crashes for the Crash Indicator), with_violations, and the events counted as violations.
   */
  units: {
    relevant: Noun;
    with_violations?: Noun;
    events: Noun;
  };
  /**
   * Safety event groups: the aggregate count they are based on and their boundaries, per segment or for all.
   */
  seg: {
    /**
     * Which count of the carrier's aggregate places it in a group.
     */
    basis: "relevant" | "with_violations";
    groups:
      | {
          combination: Groups;
          straight: Groups;
        }
      | {
          all: Groups;
        };
    source: Source;
    review?: Review;
  };
  /**
   * Minimum counts to be ranked (null: no minimum on that count).
   */
  sufficiency: {
    min_relevant: Count;
    min_with_violations: Count;
    source: Source;
    review?: Review;
  };
  /**
   * Which inspections are relevant to the BASIC.
   */
  relevant_inspections?: string;
  source: Source;
  review?: Review;
}
/**
 * A counted noun, singular and plural.
 *
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "noun".
 */
export interface Noun {
  one: string;
  other: string;
}
/**
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "formula".
 */
export interface Formula {
  formula: string;
  source: Source;
  review?: Review;
}
/**
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "rule".
 */
export interface Rule1 {
  rule: string;
  source: Source;
  review?: Review;
}
/**
 * This interface was referenced by `SMSMethodologyData`'s JSON-Schema
 * via the `definition` "thresholdRow".
 */
export interface ThresholdRow {
  unsafe_driving: Percent;
  hos_compliance: Percent;
  driver_fitness: Percent;
  controlled_substances: Percent;
  vehicle_maintenance: Percent;
  hazmat: Percent;
  crash_indicator: Percent;
}
