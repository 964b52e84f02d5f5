// Raw SMS Input rows to InspectionRow, ViolationRow and CrashRow, or issues; pure, the date pivot passed in.
// An empty or unreadable count or flag is 0 / false with an issue, not a dropped row, since dropping would
// understate a carrier's record; only a row with no id, DOT number or valid date is dropped.
import { assertIsoDate, parseAnyDate } from '../../contract/core/dates.ts';
import { rowIssue as issue, type Normalized, type RowIssue } from '../core/issues.ts';
import { cleanText, parseInteger, parseNumber } from '../../contract/core/values.ts';
import { RELEVANCE_COLUMNS } from './inputs.ts';
import { toDotNumber } from './normalize-census.ts';
import type { CrashRow, InspectionRow, ViolationRow } from './types.ts';
import type { ViolationBasic } from '../../contract/carriers/basics.ts';

type Raw = Record<string, string>;

const TRUE = new Set(['y', 'yes', 't', 'true']);
const FALSE = new Set(['n', 'no', 'f', 'false']);

/**
 * An SMS flag: `true`/`false` (open-data exports), `Y`/`N` (FMCSA txt and MCMIS files), `1`/`0`, any case;
 * a count such as BASIC_Viol reads as true when > 0. `null` empty, `undefined` anything else.
 */
export function toSmsFlag(raw: string | undefined): boolean | null | undefined {
  const s = (raw ?? '').trim().toLowerCase();
  if (s === '') return null;
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  const n = parseNumber(s);
  return n === null || Number.isNaN(n) || n < 0 ? undefined : n > 0;
}

/**
 * BASIC_Desc → our BASIC names, keyed by the description in lower case with every run of non-letters/digits
 * one space. FMCSA has renamed BASICs over SMS versions; all names seen in its files and APIs are listed.
 */
const BASIC_NAMES: Record<string, ViolationBasic> = {
  'unsafe driving': 'unsafe_driving',
  'hours of service compliance': 'hos_compliance',
  'hos compliance': 'hos_compliance',
  // The BASIC's name until SMS 3.0 (December 2012), also written "Fatigued Driving (HOS)".
  'fatigued driving': 'hos_compliance',
  'fatigued driving hos': 'hos_compliance',
  'driver fitness': 'driver_fitness',
  'controlled substances alcohol': 'controlled_substances',
  'drugs alcohol': 'controlled_substances',
  'vehicle maintenance': 'vehicle_maintenance',
  // QCMobile's short form (qcmobile_basics_44110.json).
  'vehicle maint': 'vehicle_maintenance',
  // SMS 3.0 (December 2012) dissolved the Cargo-Related BASIC: load securement went to Vehicle Maintenance,
  // the hazmat violations to the new HM Compliance BASIC.
  'cargo related': 'vehicle_maintenance',
  'hazardous materials compliance': 'hazmat',
  'hm compliance': 'hazmat',
  hazmat: 'hazmat',
};

/** Our BASIC for an FMCSA BASIC_Desc, any case and punctuation; `undefined` when it names none we rank. */
export function toBasic(desc: string | undefined): ViolationBasic | undefined {
  const key = (desc ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return BASIC_NAMES[key];
}

/** Per-row reader: each field helper records its own issue. */
function reader(raw: Raw, file: string, record: number, what: () => string) {
  const issues: RowIssue[] = [];
  const note = (kind: string, key: string, message: string): void => {
    issues.push(issue(file, record, kind, `${what()}: ${key} ${message}`, false));
  };
  return {
    issues,
    note,
    /** A whole count ≥ 0; an absent column (optional spec) is 0 without an issue. */
    count(key: string): number {
      const v = raw[key];
      const n = parseInteger(v);
      if (n === null) {
        if (v !== undefined) note('missing_value', key, 'is empty; read as 0');
        return 0;
      }
      if (Number.isNaN(n) || n < 0) {
        note('invalid_value', key, `"${v ?? ''}" is not a whole number ≥ 0; read as 0`);
        return 0;
      }
      return n;
    },
    /** A flag; an absent column is false without an issue. */
    flag(key: string, options: { emptyIsFalse?: boolean } = {}): boolean {
      const v = raw[key];
      const b = toSmsFlag(v);
      if (b === null && v !== undefined && options.emptyIsFalse !== true)
        note('missing_value', key, 'is empty; read as false');
      if (b === undefined) note('invalid_value', key, `"${v ?? ''}" is not a flag; read as false`);
      return b ?? false;
    },
  };
}

/** The row's DOT number and ISO date, or the reason to drop it. */
function keyFields(raw: Raw, reference: string): { dot: number; date: string } | string {
  const dot = toDotNumber(raw.dot);
  if (dot === undefined) return `DOT number "${raw.dot ?? ''}" is not 1–8 digits`;
  const date = parseAnyDate(raw.date, reference);
  if (date === null) return `DOT ${dot}: empty date`;
  if (date === undefined) return `DOT ${dot}: date "${raw.date ?? ''}" is not a valid date`;
  return { dot, date };
}

const dropped = (file: string, record: number, message: string) => ({
  issues: [issue(file, record, 'invalid_row', `${message}: row dropped`, true)],
});

/** SMS Input – Inspection. Levels are the CVSA inspection levels I–VIII. */
export function normalizeInspectionRow(
  raw: Raw,
  file: string,
  record: number,
  reference: string,
): Normalized<InspectionRow> {
  assertIsoDate(reference, 'SMS reference date');
  const uniqueId = cleanText(raw.unique_id);
  if (uniqueId === null) return dropped(file, record, 'empty Unique_ID');
  const key = keyFields(raw, reference);
  if (typeof key === 'string') return dropped(file, record, `inspection ${uniqueId}: ${key}`);
  const r = reader(raw, file, record, () => `inspection ${uniqueId}`);

  let level = parseInteger(raw.level);
  if (level !== null && (Number.isNaN(level) || level < 1 || level > 8)) {
    r.note('invalid_value', 'level', `"${raw.level ?? ''}" is not an inspection level 1–8; read as empty`);
    level = null;
  }
  const relevant = {} as Record<ViolationBasic, boolean>;
  for (const [basic, column] of Object.entries(RELEVANCE_COLUMNS) as [ViolationBasic, string][])
    relevant[basic] = r.flag(column);

  return {
    row: {
      unique_id: uniqueId,
      ...key,
      state: cleanText(raw.state)?.toUpperCase() ?? null,
      level,
      driver_oos: r.count('driver_oos'),
      vehicle_oos: r.count('vehicle_oos'),
      hazmat_oos: r.count('hazmat_oos'),
      hazmat_placard: r.flag('hazmat_placard'),
      relevant,
      with_violations: r.flag('with_violations'),
    },
    issues: r.issues,
  };
}

/**
 * SMS Input – Violation. A BASIC_Desc naming no BASIC we rank keeps the row with `basic: null`. The OOS
 * weight, when absent or unreadable, is the methodology's: 2 for an out-of-service violation, else 0. A
 * violation without a severity weight cannot be measured and is dropped.
 */
export function normalizeViolationRow(
  raw: Raw,
  file: string,
  record: number,
  reference: string,
): Normalized<ViolationRow> {
  assertIsoDate(reference, 'SMS reference date');
  const uniqueId = cleanText(raw.unique_id);
  if (uniqueId === null) return dropped(file, record, 'empty Unique_ID');
  const key = keyFields(raw, reference);
  if (typeof key === 'string') return dropped(file, record, `violation of inspection ${uniqueId}: ${key}`);
  const code = cleanText(raw.code) ?? '';
  const what = `violation ${code || '(no code)'} of inspection ${uniqueId}`;
  const severity = parseNumber(raw.severity_weight);
  if (severity === null || Number.isNaN(severity) || severity < 0) {
    return dropped(file, record, `${what}: Severity_Weight "${raw.severity_weight ?? ''}" is not a number ≥ 0`);
  }
  const r = reader(raw, file, record, () => what);
  if (code === '') r.note('missing_value', 'code', 'is empty');

  const basic = toBasic(raw.basic) ?? null;
  if (basic === null)
    r.note('unknown_basic', 'BASIC_Desc', `"${raw.basic ?? ''}" names no ranked BASIC; not counted in any BASIC`);
  const oos = r.flag('oos');
  let oosWeight = parseNumber(raw.oos_weight);
  if (oosWeight === null || Number.isNaN(oosWeight) || oosWeight < 0) {
    if (raw.oos_weight !== undefined) {
      const [kind, message] =
        oosWeight === null
          ? ['missing_value', 'is empty']
          : ['invalid_value', `"${raw.oos_weight}" is not a number ≥ 0`];
      r.note(kind, 'oos_weight', `${message}; read as ${oos ? 2 : 0} from OOS_Indicator`);
    }
    oosWeight = oos ? 2 : 0;
  }

  return {
    row: {
      unique_id: uniqueId,
      ...key,
      code,
      basic,
      oos,
      severity_weight: severity,
      oos_weight: oosWeight,
      description: cleanText(raw.description),
      group: cleanText(raw.group),
    },
    issues: r.issues,
  };
}

/**
 * SMS Input – Crash (or the MCMIS crash file): dates `DD-MON-YY` or `YYYYMMDD`, flags `Y`/`N` or
 * `true`/`false`. An empty Not_Preventable is false without an issue: most crashes never get a
 * preventability determination.
 */
export function normalizeCrashRow(raw: Raw, file: string, record: number, reference: string): Normalized<CrashRow> {
  assertIsoDate(reference, 'SMS reference date');
  const reportNumber = cleanText(raw.report_number);
  if (reportNumber === null) return dropped(file, record, 'empty Report_Number');
  const key = keyFields(raw, reference);
  if (typeof key === 'string') return dropped(file, record, `crash ${reportNumber}: ${key}`);
  const r = reader(raw, file, record, () => `crash ${reportNumber}`);
  const seq = cleanText(raw.seq) ?? '';
  if (seq === '') r.note('missing_value', 'seq', 'is empty');

  return {
    row: {
      report_number: reportNumber,
      seq,
      ...key,
      state: cleanText(raw.state)?.toUpperCase() ?? null,
      fatalities: r.count('fatalities'),
      injuries: r.count('injuries'),
      tow_away: r.flag('tow_away'),
      hazmat_released: r.flag('hazmat_released'),
      not_preventable: r.flag('not_preventable', { emptyIsFalse: true }),
    },
    issues: r.issues,
  };
}
