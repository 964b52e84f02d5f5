// Model constants, tuned so scale 700 gives about 7 M inspections, 10 M violations and 150 k crashes.

/** Truncated Pareto for fleet sizes: about half the carriers run one power unit, a few run thousands. */
export const FLEET_ALPHA = 1.1;
export const FLEET_MAX = 8000;
export const INSPECTIONS_PER_UNIT = 0.71;
export const INSPECTION_EXPONENT = 0.9;
/** Share of inspections with no violation outright (before the count draw). */
export const CLEAN_INSPECTION = 0.33;
export const VIOLATIONS_PER_DIRTY = 2.26;
export const CRASHES_PER_INSPECTION = 0.021;
export const OUTLIER_POWER_UNITS = 45_001;
export const OUTLIER_DRIVERS = 2;

export type Kind = 'forhire' | 'private' | 'exempt' | 'passenger' | 'hazmat' | 'government' | 'mail';
export const KINDS: readonly (readonly [Kind, number])[] = [
  ['forhire', 45],
  ['private', 38],
  ['exempt', 4.5],
  ['passenger', 1.6],
  ['hazmat', 3.6],
  ['government', 1.2],
  ['mail', 0.5],
];

/** Share of each kind that runs interstate (carrier_operation A); the sample has A 35 %, B 2 %, C 64 % (README §1). */
export const INTERSTATE_SHARE: Record<Kind, number> = {
  forhire: 0.6,
  private: 0.15,
  exempt: 0.3,
  passenger: 0.65,
  hazmat: 0.5,
  government: 0,
  mail: 0.7,
};
/** Relative inspection exposure by kind: interstate for-hire trucks pass the most roadside checks. */
export const INSPECTION_RATE: Record<Kind, number> = {
  forhire: 1.5,
  private: 0.6,
  exempt: 0.9,
  passenger: 1,
  hazmat: 1.3,
  government: 0.2,
  mail: 1.2,
};
export const INTRASTATE_FOR_HIRE_RATE = 0.9;

export type Plant =
  | 'leadingZero'
  | 'bigFleet'
  | 'passenger'
  | 'zeroMileage'
  | 'hazmat'
  | 'outlier'
  | 'emptyPowerUnits'
  | 'clean';
/** Where each planted carrier sits, as a fraction of the DOT-ordered list. */
export const PLANTS: readonly (readonly [Plant, number])[] = [
  ['leadingZero', 0.05],
  ['bigFleet', 0.12],
  ['passenger', 0.21],
  ['zeroMileage', 0.33],
  ['hazmat', 0.45],
  ['outlier', 0.58],
  ['emptyPowerUnits', 0.71],
  ['clean', 0.84],
];
