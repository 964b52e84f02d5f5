// Violations: real 49 CFR cites with the severity weights and violation groups of the SMS tables (methodology
// §B.3: 1–10 by crash-risk association; OOS adds 2). `oos` is the chance the cite put the driver or vehicle
// out of service.

export const BASIC_DESC = {
  unsafe: 'Unsafe Driving',
  hos: 'Hours-of-Service Compliance',
  fitness: 'Driver Fitness',
  substances: 'Controlled Substances/Alcohol',
  maintenance: 'Vehicle Maintenance',
  hazmat: 'Hazardous Materials Compliance',
} as const;
export type ViolBasic = keyof typeof BASIC_DESC;

interface ViolationKind {
  code: string;
  section: string;
  group: string;
  severity: number;
  oos: number;
  weight: number;
}
const v = (
  code: string,
  section: string,
  group: string,
  severity: number,
  oos: number,
  weight: number,
): ViolationKind => ({ code, section, group, severity, oos, weight });

const VIOLATIONS: Record<ViolBasic, readonly ViolationKind[]> = {
  unsafe: [
    v('3922-SLLS2', 'State/Local Laws - Speeding 6-10 miles per hour over the speed limit', 'Speeding 2', 4, 0, 30),
    v('3922-SLLS3', 'State/Local Laws - Speeding 11-14 miles per hour over the speed limit', 'Speeding 3', 7, 0, 14),
    v(
      '3922-SLLS4',
      'State/Local Laws - Speeding 15 or more miles per hour over the speed limit',
      'Speeding 4',
      10,
      0,
      6,
    ),
    v('39216', 'Failing to use seat belt while operating CMV', 'Seat Belt', 7, 0, 20),
    v('3922-SLLFC', 'State/Local Laws - Following too close', 'Dangerous Driving', 5, 0, 8),
    v('3922-SLLLC', 'State/Local Laws - Improper lane change', 'Dangerous Driving', 5, 0, 10),
    v('3922-SLLT', 'State/Local Laws - Failure to obey traffic control device', 'Dangerous Driving', 5, 0, 8),
    v('39280A', 'Using a hand-held mobile telephone while operating a CMV', 'Phone Call', 10, 0, 4),
  ],
  hos: [
    v('3958A-ELD', 'No record of duty status (ELD Required)', 'Incomplete/Wrong Log', 5, 0.3, 18),
    v('3958E', 'False report of drivers record of duty status', 'False Log', 7, 0.2, 10),
    v('3953A2-PROP', 'Driving beyond 14 hour duty period (Property)', 'Driving Hours', 7, 0.2, 14),
    v(
      '3953A3-PROP',
      'Driving beyond 11 hour driving limit in a 14 hour period (Property)',
      'Driving Hours',
      7,
      0.2,
      10,
    ),
    v('3958F1', "Driver's record of duty status not current", 'Incomplete/Wrong Log', 5, 0.03, 20),
    v('3958K2', "Failing to retain previous 7 days' records of duty status", 'Incomplete/Wrong Log', 5, 0, 10),
    v('39522H4', 'Driver failed to maintain ELD instruction sheet', 'Other Log/Form & Manner', 1, 0, 18),
  ],
  fitness: [
    v('39141A-F', 'Driver not in possession of medical certificate', 'Medical Certificate', 1, 0, 30),
    v('39145B', "Expired medical examiner's certificate", 'Medical Certificate', 1, 0, 12),
    v('39111B2', 'Non-English speaking driver', 'General Driver Qualification', 4, 0.1, 10),
    v('38323A2', 'Operating a CMV without a CDL', 'No Valid CDL', 8, 0.5, 8),
    v('39111', 'Unqualified driver', 'General Driver Qualification', 4, 0.05, 16),
    v('38351A-SUS', 'Driving a CMV while CDL is suspended, in the State of licensure', 'Suspended CDL', 10, 0.6, 6),
  ],
  substances: [
    v('3924A', 'Driver uses or is in possession of drugs', 'Drugs', 10, 0.5, 40),
    v('3925A2', 'Possession, use or under the influence of alcohol within 4 hours of duty', 'Alcohol', 10, 0.6, 40),
    v('3925C2', 'Violating an out-of-service order pursuant to 392.5(a)/(b)', 'Alcohol', 10, 0.6, 20),
  ],
  maintenance: [
    v('3939A', 'Inoperable required lamp', 'Lighting', 6, 0.07, 30),
    v('3939TS', 'Inoperative turn signal', 'Lighting', 6, 0.25, 8),
    v('39347E', 'Clamp or roto-chamber type brake(s) out of adjustment', 'Brakes Out of Adjustment', 4, 0.33, 16),
    v('39345D', 'Brake connections with leaks, constrictions', 'Brakes, All Others', 4, 0.4, 8),
    v('39375C', 'Tire-other tread depth less than 2/32 of inch', 'Tires', 8, 0.4, 12),
    v('39375A3', 'Tire-flat and/or audible air leak', 'Tires', 8, 0.75, 6),
    v('39395A', 'No, discharged, or unsecured fire extinguisher', 'Emergency Equipment', 2, 0, 12),
    v('39617C', 'Operating a CMV without proof of a periodic inspection', 'Inspection Reports', 4, 0, 14),
    v('3963A1', 'Inspection, repair and maintenance of parts and accessories', 'Brakes, All Others', 4, 0.15, 10),
    v('39311LR', 'Lower retroreflective sheeting missing or not as required', 'Reflective Sheeting', 3, 0, 8),
    v('39360C', 'Damaged or discolored windshield', 'Windshield/Glass/Markings', 1, 0, 8),
    v('393100A', 'Failure to prevent cargo shifting', 'Cargo-Related', 7, 0.4, 4),
  ],
  hazmat: [
    v('177817E', 'Shipping paper accessibility', 'HM Shipping Papers', 5, 0.1, 30),
    v('172504A', 'Vehicle not placarded as required', 'HM Placarding', 8, 0.4, 16),
    v('177834A', 'Package not secure in vehicle', 'HM Package Securement', 10, 0.5, 14),
    v('172602', 'No emergency response information', 'HM Emergency Response Information', 5, 0.1, 20),
    v('180407A', 'Cargo tank not tested or inspected as required', 'HM Cargo Tank', 10, 0.3, 6),
  ],
};
export const VIOLATION_WEIGHTS = Object.fromEntries(
  Object.entries(VIOLATIONS).map(([basic, kinds]) => [basic, kinds.map((k) => [k, k.weight] as const)]),
) as unknown as Record<ViolBasic, readonly (readonly [ViolationKind, number])[]>;

/** How often each BASIC's cites turn up among an inspection's violations, when the inspection is relevant to it. */
export const BASIC_SHARE: Record<ViolBasic, number> = {
  maintenance: 60,
  hos: 14,
  unsafe: 9,
  fitness: 9,
  substances: 0.25,
  hazmat: 14,
};

/** Inspection levels (CVSA): 1 full, 2 walk-around, 3 driver-only, 4 special, 5 vehicle-only, 6 radioactive. */
export const DRIVER_LEVELS = new Set([1, 2, 3, 6]);
export const VEHICLE_LEVELS = new Set([1, 2, 5, 6]);
/** Expected violations relative to a level 2 inspection; level 4 is a special study with no BASIC cites. */
export const LEVEL_VIOLATIONS = [0, 1.35, 1, 0.65, 0, 1.2, 0.4];
export const LEVELS: readonly (readonly [number, number])[] = [
  [1, 27],
  [2, 33],
  [3, 35.5],
  [4, 0.5],
  [5, 4],
];
export const HAZMAT_LEVELS: readonly (readonly [number, number])[] = [
  [1, 32],
  [2, 30],
  [3, 30],
  [4, 0.5],
  [5, 6],
  [6, 1.5],
];
