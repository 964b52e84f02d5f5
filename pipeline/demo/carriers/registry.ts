// Invented L&I and out-of-service-order rows for a demo carrier, in FMCSA's layouts (docs/data-sources.md,
// "FMCSA Licensing and Insurance"): for-hire carriers hold a docket whose authority is mostly active, sometimes
// revoked, inactive or pending; most file the BI&PD insurance their kind requires; a few have an order. Every
// date is drawn against the first edition's as-of day, so each edition writes the same rows for a carrier.
import type { Rng } from '../../../contract/core/rng.ts';
import type { Carrier } from './carrier.ts';
import type { Timeline } from './dates.ts';

export const LI_CARRIER_FILE = 'li/Carrier_-_All_With_History.csv';
export const AUTHORITY_HISTORY_FILE = 'li/AuthHist_-_All_With_History.csv';
export const INSURANCE_FILE = 'li/ActPendInsur_-_All_With_History.csv';
export const INSURANCE_HISTORY_FILE = 'li/InsHist_-_All_With_History.csv';
export const REVOCATION_FILE = 'li/revocation.txt';
export const OOS_ORDER_FILE = 'li/OUT_OF_SERVICE_ORDERS.csv';

const q = (fields: readonly (string | number)[]) => `${fields.map((f) => `"${f}"`).join(',')}\n`;

export const REGISTRY_HEADERS: Record<string, string> = {
  [LI_CARRIER_FILE]: q([
    'DOCKET_NUMBER',
    'DOT_NUMBER',
    'MX_TYPE',
    'RFC_NUMBER',
    'COMMON_STAT',
    'CONTRACT_STAT',
    'BROKER_STAT',
    'COMMON_APP_PEND',
    'CONTRACT_APP_PEND',
    'BROKER_APP_PEND',
    'COMMON_REV_PEND',
    'CONTRACT_REV_PEND',
    'BROKER_REV_PEND',
    'PROPERTY_CHK',
    'PASSENGER_CHK',
    'HHG_CHK',
    'PRIVATE_AUTH_CHK',
    'ENTERPRISE_CHK',
    'MIN_COV_AMOUNT',
    'CARGO_REQ',
    'BOND_REQ',
    'BIPD_FILE',
    'CARGO_FILE',
    'BOND_FILE',
  ]),
  [AUTHORITY_HISTORY_FILE]: q([
    'DOCKET_NUMBER',
    'DOT_NUMBER',
    'SUB_NUMBER',
    'OP_AUTH_TYPE',
    'ORIGINAL_ACTION_DESC',
    'ORIG_SERVED_DATE',
    'DISP_ACTION_DESC',
    'DISP_DECIDED_DATE',
    'DISP_SERVED_DATE',
  ]),
  [INSURANCE_FILE]: q([
    'DOCKET_NUMBER',
    'DOT_NUMBER',
    'ins_form_code',
    'ins_type_desc',
    'name_company',
    'policy_no',
    'trans_date',
    'underl_lim_amount',
    'max_cov_amount',
    'effective_date',
    'cancl_effective_date',
  ]),
  [INSURANCE_HISTORY_FILE]: q([
    'docket_number',
    'dot_number',
    'ins_form_code',
    'cancl_method_gen',
    'ins_cancl_form',
    'ins_type_ind',
    'ins_type_desc',
    'policy_no',
    'min_cov_amount',
    'ins_class_code',
    'effective_date',
    'underl_lim_amount',
    'max_cov_amount',
    'cancl_effective_date',
    'cancl_method',
    'inser_branch',
    'name_company',
  ]),
  [REVOCATION_FILE]: q([
    'DOCKET_NUMBER',
    'DOT_NUMBER',
    'OPERATING_AUTHORITY_REGISTRATION_TYPE',
    'SERVE_DATE',
    'REVOCATION_TYPE',
    'EFFECTIVE_DATE',
  ]),
  [OOS_ORDER_FILE]: 'DOT_NUMBER,LEGAL_NAME,DBA_NAME,OOS_DATE,OOS_REASON,STATUS,RESCIND_DATE\n',
};

const INSURERS = [
  'GREAT PLAINS CASUALTY',
  'NORTHERN MUTUAL',
  'LONE PINE INDEMNITY',
  'HARBOR SURETY CO',
  'BLUE RIDGE INS',
];
const OOS_REASONS = [
  'Unsatisfactory = Unfit',
  'New Entrant Revoked - Refusal of Audit/No Contact',
  'Failure to Pay Fine',
  'Imminent Hazard',
];

const DAY_MS = 86_400_000;
const iso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** MM/DD/YYYY, as the L&I files write dates. */
const us = (day: number) => {
  const d = iso(day);
  return `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}`;
};
const pad8 = (n: number) => String(n).padStart(8, '0');
/** Thousands of dollars, five digits: 750 → `00750`. */
const k5 = (thousands: number) => String(thousands).padStart(5, '0');

/** Writes one line (its newline included) to the file at `file`, a path of REGISTRY_HEADERS. */
export type AddLine = (file: string, line: string) => void;

/**
 * The rows of one carrier; `name` is its legal name as the census has it. What stands at the first edition's
 * as-of day is drawn from it; a few carriers lapse later (their insurance is cancelled, and 33 days on, their
 * authority revoked) or get an order later, on a drawn day written only by the editions that reach it, so
 * builds in a row show those changes.
 */
export function writeRegistryLines(w: Timeline, c: Carrier, name: string, rng: Rng, add: AddLine): void {
  const today = w.firstAsOfDay;
  const reached = (day: number) => day <= w.asOfDay;
  const order = rng.chance(0.004) ? today - rng.int(20, 1500) : rng.chance(0.002) ? today + rng.int(1, 400) : null;
  if (order !== null && reached(order)) {
    const rescind = rng.chance(0.5) ? order + rng.int(10, 120) : null;
    const rescinded = rescind !== null && reached(rescind) ? iso(rescind) : '';
    add(
      OOS_ORDER_FILE,
      `${c.dot},"${name.replaceAll('"', '""')}",,${iso(order)},${rng.pick(OOS_REASONS)},ACTIVE,${rescinded}\n`,
    );
  }
  const forHire = c.kind === 'forhire' || c.kind === 'passenger' || c.kind === 'hazmat';
  if (!forHire || (c.operation !== 'A' && !rng.chance(0.1))) return;

  // A docket of its own: the number follows the carrier number, so every edition gives it the same one.
  const docket = `MC${c.dot + 90_000}`;
  const dot = pad8(c.dot);
  const granted = today - rng.int(400, 9000);
  const draw = rng.float(0, 1);
  let status = draw < 0.86 ? 'active' : draw < 0.92 ? 'revoked' : draw < 0.97 ? 'inactive' : 'pending';
  const required = c.passenger ? 5000 : c.hazmat ? (rng.chance(0.5) ? 5000 : 1000) : 750;
  let insured = status === 'active' && rng.chance(0.96);
  let ended = today - rng.int(30, 300);
  // A lapse after the first edition: the policy is cancelled, then the authority revoked.
  const lapse = insured && rng.chance(0.03) ? today + rng.int(1, 300) : null;
  let cancelled: number | null = null;
  if (lapse !== null && reached(lapse)) {
    insured = false;
    cancelled = lapse;
    if (reached(lapse + 33)) {
      status = 'revoked';
      ended = lapse + 33;
    }
  }
  const type = c.passenger ? 'MOTOR PASSENGER COMMON CARRIER' : 'MOTOR PROPERTY COMMON CARRIER';
  const stat = status === 'active' ? 'A' : status === 'pending' ? 'N' : 'I';
  add(
    LI_CARRIER_FILE,
    q([
      docket,
      dot,
      ' ',
      '',
      stat,
      'N',
      'N',
      status === 'pending' ? 'Y' : 'N',
      'N',
      'N',
      'N',
      'N',
      'N',
      c.passenger ? 'N' : 'Y',
      c.passenger ? 'Y' : 'N',
      'N',
      'N',
      'N',
      k5(required),
      'N',
      'N',
      k5(insured ? required : 0),
      'N',
      'N',
    ]),
  );
  if (status !== 'pending') {
    const disposition = status === 'revoked' ? 'REVOKED' : status === 'inactive' ? 'DISMISSED' : '';
    const endedUs = disposition ? us(ended) : '';
    add(AUTHORITY_HISTORY_FILE, q([docket, dot, '1', type, 'GRANTED', us(granted), disposition, endedUs, endedUs]));
    if (status === 'revoked') {
      const voluntary = cancelled === null && rng.chance(0.15);
      add(
        REVOCATION_FILE,
        q([
          docket,
          dot,
          'COMMON',
          voluntary ? '' : us(ended - 30),
          voluntary ? 'VOLUNTARY REVOCATION' : 'INVOLUNTARY REVOCATION',
          us(ended),
        ]),
      );
    }
  }
  const insurer = rng.pick(INSURERS);
  const policy = `${insurer.slice(0, 2)}-${c.dot}`;
  const effective = today - rng.int(20, 700);
  const coverage = required + (rng.chance(0.3) ? 250 : 0);
  if (insured)
    add(
      INSURANCE_FILE,
      q([
        docket,
        dot,
        '91X',
        'BIPD/Primary',
        insurer,
        policy,
        us(effective - 10),
        '0',
        String(coverage),
        us(effective),
        '',
      ]),
    );
  // A policy that ended: the one the current policy replaced, or one cancelled with none after it.
  const history = (from: number, to: number, policyNo: string, replaced: boolean) =>
    add(
      INSURANCE_HISTORY_FILE,
      q([
        docket,
        dot,
        '91X',
        replaced ? 'REPLACED' : 'CANCELLED',
        replaced ? '91X' : '35',
        ' ',
        'BIPD/Primary',
        policyNo,
        String(required),
        'P',
        us(from),
        '0',
        String(required),
        us(to),
        replaced ? 'TERM/REPL' : 'TERM/CANCL',
        '01',
        insurer,
      ]),
    );
  // The policies before: one a year or so back towards the grant, each replaced by the next (FMCSA keeps
  // every filing ever made, so the history file is the largest of them).
  const chain = (end: number) => {
    const years = Math.floor((end - granted) / 365);
    for (let k = rng.int(0, Math.max(0, Math.min(6, years))), i = 1; i <= k; i++) {
      const from = end - rng.int(300, 400);
      history(from, end, `${policy}-${i}`, true);
      end = from;
    }
  };
  if (cancelled !== null) {
    history(effective, cancelled, policy, false);
    chain(effective);
  } else if (status !== 'pending') {
    if (insured) chain(effective);
    else {
      const to = Math.min(ended, today - rng.int(30, 700));
      const from = to - rng.int(300, 400);
      history(from, to, `${policy}-1`, false);
      chain(from);
    }
  }
}

/**
 * The rows of a docket whose carrier is gone from the census (`dot` is a number the census skips): L&I keeps
 * every docket ever issued, so most of its rows name no carrier of today. Inactive, its authority dismissed or
 * revoked years ago, with the insurance it once had.
 */
export function writeGoneDocketLines(w: Timeline, dot: number, rng: Rng, add: AddLine): void {
  const docket = `MC${dot + 90_000}`;
  const padded = pad8(dot);
  const granted = w.firstAsOfDay - rng.int(3000, 12_000);
  const ended = granted + rng.int(200, 2500);
  const revoked = rng.chance(0.6);
  add(
    LI_CARRIER_FILE,
    q([
      docket,
      padded,
      ' ',
      '',
      'I',
      'N',
      'N',
      'N',
      'N',
      'N',
      'N',
      'N',
      'N',
      'Y',
      'N',
      'N',
      'N',
      'N',
      '00750',
      'N',
      'N',
      '00000',
      'N',
      'N',
    ]),
  );
  const disposition = revoked ? 'REVOKED' : 'DISMISSED';
  add(
    AUTHORITY_HISTORY_FILE,
    q([
      docket,
      padded,
      '1',
      'MOTOR PROPERTY COMMON CARRIER',
      'GRANTED',
      us(granted),
      disposition,
      us(ended),
      us(ended),
    ]),
  );
  if (revoked) add(REVOCATION_FILE, q([docket, padded, 'COMMON', us(ended - 30), 'INVOLUNTARY REVOCATION', us(ended)]));
  const insurer = rng.pick(INSURERS);
  let end = ended;
  for (let i = rng.int(1, 3); i > 0 && end - 400 > granted; i--) {
    const from = end - rng.int(300, 400);
    add(
      INSURANCE_HISTORY_FILE,
      q([
        docket,
        padded,
        '91X',
        end === ended ? 'CANCELLED' : 'REPLACED',
        end === ended ? '35' : '91X',
        ' ',
        'BIPD/Primary',
        `${insurer.slice(0, 2)}-${dot}-${i}`,
        '750',
        'P',
        us(from),
        '0',
        '750',
        us(end),
        end === ended ? 'TERM/CANCL' : 'TERM/REPL',
        '01',
        insurer,
      ]),
    );
    end = from;
  }
}
