// The Behavior Analysis and Safety Improvement Categories (docs/reference/sms-methodology.md).

/** The seven BASICs in the contract's fixed order. */
export const BASICS = [
  'unsafe_driving',
  'hos_compliance',
  'driver_fitness',
  'controlled_substances',
  'vehicle_maintenance',
  'hazmat',
  'crash_indicator',
] as const;
export type Basic = (typeof BASICS)[number];
/** BASICs measured from inspection violations (the crash indicator is measured from crashes). */
export type ViolationBasic = Exclude<Basic, 'crash_indicator'>;
