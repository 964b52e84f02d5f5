// Typed rows and aggregates of the carriers build (docs/contracts/carriers.md). Parsers produce the rows,
// the streaming aggregation produces CarrierAggregate, and the ranking stages turn aggregates into profiles.
import type { Basic, ViolationBasic } from '../../contract/carriers/basics.ts';

/** One census row, either form (FMCSA_CENSUS1 txt with Y/N, or the open-data CSV with true/false). */
export interface CensusRow {
  dot: number;
  legal_name: string;
  dba_name: string | null;
  /** A interstate, B intrastate hazmat, C intrastate non-hazmat. */
  carrier_operation: 'A' | 'B' | 'C' | null;
  hm_flag: boolean | null;
  pc_flag: boolean | null;
  city: string | null;
  state: string | null;
  /** Kept as text: `08861`, `34604-1486`. */
  zip: string | null;
  country: string | null;
  power_units: number | null;
  drivers: number | null;
  mcs150_mileage: number | null;
  mcs150_mileage_year: number | null;
  recent_mileage: number | null;
  recent_mileage_year: number | null;
  /** ISO dates (YYYY-MM-DD) from DD-MON-YY with a century pivot. */
  mcs150_date: string | null;
  add_date: string | null;
  authorized_for_hire: boolean | null;
  private_passenger_business: boolean | null;
  private_passenger_nonbusiness: boolean | null;
}

/** SMS Input – Inspection. */
export interface InspectionRow {
  unique_id: string;
  dot: number;
  /** ISO date. */
  date: string;
  /** Report_State: where the inspection took place (two letters), null when absent. */
  state: string | null;
  level: number | null;
  driver_oos: number;
  vehicle_oos: number;
  hazmat_oos: number;
  hazmat_placard: boolean;
  /** Which BASICs the inspection is relevant to (Unsafe_Insp, Fatigued_Insp, Dr_Fitness_Insp, Subt_Alcohol_Insp, Vh_Maint_Insp, HM_Insp). */
  relevant: Record<ViolationBasic, boolean>;
  /** BASIC_Viol: violations of any BASIC were found. */
  with_violations: boolean;
}

/** SMS Input – Violation. */
export interface ViolationRow {
  unique_id: string;
  dot: number;
  date: string;
  code: string;
  /** From BASIC_Desc; null when the description names no BASIC we rank. */
  basic: ViolationBasic | null;
  oos: boolean;
  severity_weight: number;
  oos_weight: number;
  /** Section_Desc: what the cited regulation says, e.g. "Operating a CMV without a periodic inspection". */
  description: string | null;
  group: string | null;
}

/** SMS Input – Crash. */
export interface CrashRow {
  report_number: string;
  seq: string;
  dot: number;
  date: string;
  state: string | null;
  fatalities: number;
  injuries: number;
  tow_away: boolean;
  hazmat_released: boolean;
  not_preventable: boolean;
}

/** Per-carrier sums over the 24-month window, built while streaming the SMS files. */
export interface CarrierAggregate {
  dot: number;
  inspections: {
    total: number;
    driver: number;
    vehicle: number;
    hazmat: number;
    with_violations: number;
    driver_oos: number;
    vehicle_oos: number;
    hazmat_oos: number;
  };
  /** Inspections with a hazmat placard in the last 12 months (HM carrier rule). */
  hazmat_placard_12m: number;
  crashes: { total: number; fatal: number; injury: number; tow_away: number };
  /** Per BASIC: relevant inspections, their time-weight sum, inspections with violations, violation count,
   *  and Σ time weight × min(Σ severity in the inspection, cap). For crash_indicator: crashes and Σ tw × sev. */
  basics: Record<
    Basic,
    {
      relevant: number;
      relevant_tw: number;
      with_violations: number;
      violations: number;
      weighted: number;
      last_violation: string | null;
    }
  >;
  /** Inspection and crash counts by month (YYYY-MM), for export. */
  monthly: Record<string, { inspections: number; crashes: number }>;
}
