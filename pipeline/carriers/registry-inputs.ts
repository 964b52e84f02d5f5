// The registry inputs, recognized by their headers like the SMS files (docs/data-sources.md, "FMCSA Licensing
// and Insurance"): FMCSA's L&I files as data.transportation.gov exports them (`rows.csv` of the "All With
// History" datasets), the daily text files that carry a header (the Revocation file does), and the
// out-of-service orders (p2mt-9ige). Layouts: FMCSA's "Dataset Description and Data Definitions - Select
// Datasets" (field order and codes) and the export headers (names), both in docs/data-sources.md. DOT numbers
// are zero-padded to 8 digits in every L&I file, amounts are in thousands of dollars, dates MM/DD/YYYY.
import type { ColumnSpec } from '../core/csv.ts';
import { parseAnyDate } from '../../contract/core/dates.ts';
import { cleanText, parseInteger } from '../../contract/core/values.ts';
import { type Docket, parseDocket } from '../../contract/carriers/dockets.ts';
import { rowIssue as issue, type Normalized, type RowIssue } from '../core/issues.ts';
import { toDotNumber } from './normalize-census.ts';
import type {
  AuthHistRow,
  AuthorityCode,
  AuthorityKind,
  FilingType,
  InsuranceRow,
  LiCarrierRow,
  OosOrderRow,
  RevocationRow,
} from './registry-types.ts';

export type RegistryInputKind =
  | 'li_carrier'
  | 'authority_history'
  | 'insurance'
  | 'insurance_history'
  | 'revocation'
  | 'oos_order';

const req = (key: string, ...names: string[]): ColumnSpec => ({ key, names, required: true });
const opt = (key: string, ...names: string[]): ColumnSpec => ({ key, names, required: false });

/** L&I Carrier (6eyk-hxee): one row per docket, its authority per kind and what it must file. */
export const LI_CARRIER_COLUMNS: ColumnSpec[] = [
  req('docket', 'DOCKET_NUMBER'),
  req('dot', 'DOT_NUMBER'),
  req('common', 'COMMON_STAT'),
  req('contract', 'CONTRACT_STAT'),
  req('broker', 'BROKER_STAT'),
  opt('common_pending', 'COMMON_APP_PEND'),
  opt('contract_pending', 'CONTRACT_APP_PEND'),
  opt('broker_pending', 'BROKER_APP_PEND'),
  opt('common_revoking', 'COMMON_REV_PEND'),
  opt('contract_revoking', 'CONTRACT_REV_PEND'),
  opt('broker_revoking', 'BROKER_REV_PEND'),
  opt('bipd_required', 'MIN_COV_AMOUNT'),
  opt('cargo_required', 'CARGO_REQ'),
  opt('bond_required', 'BOND_REQ'),
  opt('bipd_on_file', 'BIPD_FILE'),
];

/** L&I AuthHist (9mw4-x3tu): one action on a docket's authority. The API names the type `mod_col_1`. */
export const AUTHORITY_HISTORY_COLUMNS: ColumnSpec[] = [
  req('docket', 'DOCKET_NUMBER'),
  opt('dot', 'DOT_NUMBER'),
  req('type', 'OP_AUTH_TYPE', 'mod_col_1'),
  req('action', 'ORIGINAL_ACTION_DESC'),
  req('date', 'ORIG_SERVED_DATE'),
  opt('disposition', 'DISP_ACTION_DESC'),
  opt('disposition_date', 'DISP_SERVED_DATE'),
];

/** L&I ActPendInsur (qh9u-swkp): an active or pending filing. */
export const INSURANCE_COLUMNS: ColumnSpec[] = [
  req('docket', 'DOCKET_NUMBER'),
  opt('dot', 'DOT_NUMBER'),
  req('form', 'ins_form_code'),
  opt('type', 'ins_type_desc', 'mod_col_1'),
  opt('insurer', 'name_company'),
  req('policy', 'policy_no'),
  req('posted', 'trans_date'),
  opt('coverage_from', 'underl_lim_amount'),
  req('coverage_to', 'max_cov_amount'),
  req('effective', 'effective_date'),
  opt('cancelled', 'cancl_effective_date'),
];

/** L&I InsHist (6sqe-dvqs): a filing cancelled, replaced, renamed or transferred. */
export const INSURANCE_HISTORY_COLUMNS: ColumnSpec[] = [
  req('docket', 'docket_number'),
  opt('dot', 'dot_number'),
  req('form', 'ins_form_code'),
  req('method', 'cancl_method_gen'),
  opt('type_indicator', 'ins_type_ind'),
  opt('type', 'ins_type_desc'),
  opt('policy', 'policy_no'),
  opt('coverage_from', 'underl_lim_amount'),
  opt('coverage_to', 'max_cov_amount'),
  req('effective', 'effective_date'),
  opt('cancelled', 'cancl_effective_date'),
  opt('insurer', 'name_company'),
];

/** L&I Revocation: the daily text file's header, or the export's (sa6p-acbp) names. */
export const REVOCATION_COLUMNS: ColumnSpec[] = [
  req('docket', 'DOCKET_NUMBER'),
  req('dot', 'DOT_NUMBER'),
  req('type', 'OPERATING_AUTHORITY_REGISTRATION_TYPE', 'TYPE_LICENSE'),
  opt('served', 'SERVE_DATE', 'ORDER1_SERVE_DATE'),
  req('revocation', 'REVOCATION_TYPE', 'ORDER2_TYPE_DESC'),
  opt('effective', 'EFFECTIVE_DATE', 'order2_effective_Date'),
];

/** OUT OF SERVICE ORDERS (p2mt-9ige): one order per row; a blank rescind date is an order in effect. */
export const OOS_ORDER_COLUMNS: ColumnSpec[] = [
  req('dot', 'DOT_NUMBER'),
  req('date', 'OOS_DATE'),
  req('reason', 'OOS_REASON'),
  opt('rescinded', 'RESCIND_DATE', 'OOS_RESCIND_DATE'),
];

type Raw = Record<string, string>;
const dropped = (file: string, record: number, message: string) => ({
  issues: [issue(file, record, 'invalid_row', `${message}: row dropped`, true)],
});

/** What every L&I row starts with: a docket (required) and a DOT number (0 or empty: none). */
function keys(raw: Raw): { docket: Docket; dot: number | null } | string {
  const docket = parseDocket(raw.docket);
  if (!docket) return `docket "${raw.docket ?? ''}" is not MC, FF or MX and a number`;
  return { docket, dot: toDotNumber(raw.dot) ?? null };
}

class Reader {
  readonly issues: RowIssue[] = [];
  constructor(
    private readonly raw: Raw,
    private readonly file: string,
    private readonly record: number,
    private readonly reference: string,
    private readonly what: string,
  ) {}
  private note(key: string, expected: string): void {
    this.issues.push(
      issue(
        this.file,
        this.record,
        'invalid_value',
        `${this.what}: ${key} "${this.raw[key]}" is not ${expected}; read as empty`,
        false,
      ),
    );
  }
  date(key: string): string | null {
    const d = parseAnyDate(this.raw[key], this.reference);
    if (d === undefined) this.note(key, 'a date');
    return d ?? null;
  }
  /** Y/N; empty or anything else is false (with an issue for anything else). */
  yes(key: string): boolean {
    const s = (this.raw[key] ?? '').trim().toUpperCase();
    if (s !== '' && s !== 'Y' && s !== 'N') this.note(key, 'Y or N');
    return s === 'Y';
  }
  /** An amount in thousands of dollars, as dollars; empty is null. */
  thousands(key: string): number | null {
    const n = parseInteger(this.raw[key]);
    if (n !== null && (Number.isNaN(n) || n < 0)) {
      this.note(key, 'an amount in thousands of dollars');
      return null;
    }
    return n === null ? null : n * 1000;
  }
  text(key: string): string | null {
    return cleanText(this.raw[key]);
  }
}

const KINDS: Record<string, AuthorityKind> = { COMMON: 'common', CONTRACT: 'contract', BROKER: 'broker' };

/** COMMON, CONTRACT, BROKER (Revocation), or AuthHist's longer words (`MOTOR PROPERTY COMMON CARRIER`, `PROPERTY BROKER`). */
export function toAuthorityKind(raw: string | undefined): AuthorityKind | null {
  const s = (raw ?? '').toUpperCase();
  for (const [word, kind] of Object.entries(KINDS)) if (new RegExp(`\\b${word}`).test(s)) return kind;
  return null;
}

export function normalizeLiCarrier(
  raw: Raw,
  file: string,
  record: number,
  reference: string,
): Normalized<LiCarrierRow> {
  const k = keys(raw);
  if (typeof k === 'string') return dropped(file, record, k);
  const r = new Reader(raw, file, record, reference, `docket ${raw.docket}`);
  const code = (key: string): AuthorityCode | null => {
    const s = (raw[key] ?? '').trim().toUpperCase();
    if (s === 'A' || s === 'I' || s === 'N') return s;
    if (s !== '') r.yes(key);
    return null;
  };
  const required = r.thousands('bipd_required');
  return {
    row: {
      docket: k.docket,
      dot: k.dot,
      status: { common: code('common'), contract: code('contract'), broker: code('broker') },
      pending: {
        common: r.yes('common_pending'),
        contract: r.yes('contract_pending'),
        broker: r.yes('broker_pending'),
      },
      revoking: {
        common: r.yes('common_revoking'),
        contract: r.yes('contract_revoking'),
        broker: r.yes('broker_revoking'),
      },
      bipd_required: required === 0 ? null : required,
      cargo_required: r.yes('cargo_required'),
      bond_required: r.yes('bond_required'),
      bipd_on_file: r.thousands('bipd_on_file'),
    },
    issues: r.issues,
  };
}

export function normalizeAuthHist(raw: Raw, file: string, record: number, reference: string): Normalized<AuthHistRow> {
  const k = keys(raw);
  if (typeof k === 'string') return dropped(file, record, k);
  const r = new Reader(raw, file, record, reference, `docket ${raw.docket}`);
  const action = r.text('action');
  if (action === null) return dropped(file, record, `docket ${raw.docket}: no action`);
  return {
    row: {
      ...k,
      kind: toAuthorityKind(raw.type),
      action,
      date: r.date('date'),
      disposition: r.text('disposition'),
      disposition_date: r.date('disposition_date'),
    },
    issues: r.issues,
  };
}

/** The filing's kind by its form code (FMCSA: 91, 91X, 82 BI&PD; 34, 83 cargo; 84 bond; 85 trust fund). */
export function toFilingType(form: string | null): FilingType {
  const f = (form ?? '').toUpperCase().replace(/^BMC-?/, '');
  if (f === '91' || f === '91X' || f === '82') return 'bipd';
  if (f === '34' || f === '83') return 'cargo';
  if (f === '84') return 'bond';
  if (f === '85') return 'trust_fund';
  return 'other';
}

function normalizeFiling(historical: boolean) {
  return (raw: Raw, file: string, record: number, reference: string): Normalized<InsuranceRow> => {
    const k = keys(raw);
    if (typeof k === 'string') return dropped(file, record, k);
    const r = new Reader(raw, file, record, reference, `docket ${raw.docket}`);
    const form = r.text('form');
    return {
      row: {
        ...k,
        form,
        type: toFilingType(form),
        insurer: r.text('insurer'),
        policy_number: r.text('policy'),
        coverage_from: r.thousands('coverage_from'),
        coverage_to: r.thousands('coverage_to'),
        effective_date: r.date('effective'),
        cancellation_date: r.date('cancelled'),
        historical,
      },
      issues: r.issues,
    };
  };
}
export const normalizeInsurance = normalizeFiling(false);
export const normalizeInsuranceHistory = normalizeFiling(true);

export function normalizeRevocation(
  raw: Raw,
  file: string,
  record: number,
  reference: string,
): Normalized<RevocationRow> {
  const k = keys(raw);
  if (typeof k === 'string') return dropped(file, record, k);
  const r = new Reader(raw, file, record, reference, `docket ${raw.docket}`);
  const type = r.text('revocation');
  if (type === null) return dropped(file, record, `docket ${raw.docket}: no revocation type`);
  const kind = toAuthorityKind(raw.type);
  if (kind === null && cleanText(raw.type) !== null)
    r.issues.push(
      issue(
        file,
        record,
        'invalid_value',
        `docket ${raw.docket}: authority type "${raw.type}" is not common, contract or broker; read as empty`,
        false,
      ),
    );
  return {
    row: {
      docket: k.docket,
      dot: k.dot,
      kind,
      serve_date: r.date('served'),
      type,
      effective_date: r.date('effective'),
    },
    issues: r.issues,
  };
}

export function normalizeOosOrder(raw: Raw, file: string, record: number, reference: string): Normalized<OosOrderRow> {
  const dot = toDotNumber(raw.dot);
  if (dot === undefined) return dropped(file, record, `DOT number "${raw.dot ?? ''}" is not 1–8 digits`);
  const r = new Reader(raw, file, record, reference, `DOT ${dot}`);
  const date = r.date('date');
  if (date === null) return dropped(file, record, `DOT ${dot}: no order date`);
  return { row: { dot, date, reason: r.text('reason'), rescinded_date: r.date('rescinded') }, issues: r.issues };
}
