// normalize*: raw census rows (keys from inputs.ts CENSUS_COLUMNS) to CensusRow, or issues. Pure: no I/O, no
// clock; the century pivot's reference date is passed in.
import { assertIsoDate, parseAnyDate } from '../../contract/core/dates.ts';
import { rowIssue as issue, type Normalized, type RowIssue } from '../core/issues.ts';
import { cleanText, parseInteger } from '../../contract/core/values.ts';
import type { CensusRow } from './types.ts';

type Raw = Record<string, string>;

/**
 * A USDOT number: digits only, zero padding stripped (`00830331` in L&I files is 830331), then 1–8 digits
 * and not 0 (MCMIS: "Max Field Length 8"). `undefined` for anything else, empty included.
 */
export function toDotNumber(raw: string | undefined): number | undefined {
  const digits = (raw ?? '').trim();
  if (!/^\d+$/.test(digits)) return undefined;
  const stripped = digits.replace(/^0+/, '');
  return stripped.length >= 1 && stripped.length <= 8 ? Number(stripped) : undefined;
}

/** Census flags: `Y`/`N` (FMCSA txt) or `true`/`false` (open-data export), any case. */
export function toCensusFlag(raw: string | undefined): boolean | null | undefined {
  const s = (raw ?? '').trim().toLowerCase();
  if (s === '') return null;
  if (s === 'y' || s === 'true') return true;
  if (s === 'n' || s === 'false') return false;
  return undefined;
}

const FLAGS = [
  'hm_flag',
  'pc_flag',
  'authorized_for_hire',
  'private_passenger_business',
  'private_passenger_nonbusiness',
] as const;
/** Counts and miles as written: empty is null, `0` stays 0 (`recent_mileage,recent_mileage_year` = `0,0` means unknown; the profile decides). */
const COUNTS = [
  'power_units',
  'drivers',
  'mcs150_mileage',
  'mcs150_mileage_year',
  'recent_mileage',
  'recent_mileage_year',
] as const;
const DATES = ['mcs150_date', 'add_date'] as const;

/**
 * One census row, either form. `reference` is an ISO date (the snapshot's) for the DD-MON-YY century pivot
 * (contract/core/dates.ts parseOracleDate). Dropped: an invalid DOT number or an empty legal name. Kept with an issue
 * and the field null: an unknown carrier_operation, flag, number or date.
 */
export function normalizeCensusRow(raw: Raw, file: string, record: number, reference: string): Normalized<CensusRow> {
  assertIsoDate(reference, 'census reference date');
  const dot = toDotNumber(raw.dot);
  const legalName = cleanText(raw.legal_name);
  if (dot === undefined || legalName === null) {
    const what =
      dot === undefined ? `DOT number "${raw.dot ?? ''}" is not 1–8 digits` : `DOT ${dot} has an empty legal name`;
    return { issues: [issue(file, record, 'invalid_row', `${what}: row dropped`, true)] };
  }
  const issues: RowIssue[] = [];
  const invalid = (key: string, expected: string): void => {
    issues.push(
      issue(
        file,
        record,
        'invalid_value',
        `DOT ${dot}: ${key} "${raw[key] ?? ''}" is not ${expected}; read as empty`,
        false,
      ),
    );
  };

  const op = (raw.carrier_operation ?? '').trim().toUpperCase();
  let carrierOperation: CensusRow['carrier_operation'] = null;
  if (op === 'A' || op === 'B' || op === 'C') carrierOperation = op;
  else invalid('carrier_operation', 'A, B or C');

  const flags = {} as Record<(typeof FLAGS)[number], boolean | null>;
  for (const key of FLAGS) {
    const b = toCensusFlag(raw[key]);
    if (b === undefined) invalid(key, 'Y/N or true/false');
    flags[key] = b ?? null;
  }

  const counts = {} as Record<(typeof COUNTS)[number], number | null>;
  for (const key of COUNTS) {
    const n = parseInteger(raw[key]);
    if (n !== null && (Number.isNaN(n) || n < 0)) invalid(key, 'a whole number ≥ 0');
    counts[key] = n === null || Number.isNaN(n) || n < 0 ? null : n;
  }

  const dates = {} as Record<(typeof DATES)[number], string | null>;
  for (const key of DATES) {
    const d = parseAnyDate(raw[key], reference);
    if (d === undefined) invalid(key, 'a valid date');
    dates[key] = d ?? null;
  }

  return {
    row: {
      dot,
      legal_name: legalName,
      dba_name: cleanText(raw.dba_name),
      carrier_operation: carrierOperation,
      hm_flag: flags.hm_flag,
      pc_flag: flags.pc_flag,
      city: cleanText(raw.city),
      state: cleanText(raw.state)?.toUpperCase() ?? null,
      // Text, never a number: `08861` keeps its zero, `34604-1486` its suffix.
      zip: cleanText(raw.zip),
      country: cleanText(raw.country)?.toUpperCase() ?? null,
      ...counts,
      ...dates,
      authorized_for_hire: flags.authorized_for_hire,
      private_passenger_business: flags.private_passenger_business,
      private_passenger_nonbusiness: flags.private_passenger_nonbusiness,
    },
    issues,
  };
}
