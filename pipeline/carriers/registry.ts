// May the carrier operate at all? The profile's `dockets`, `authority`, `insurance`, `out_of_service_orders`
// and `operating_status` from its registry rows (registry-types.ts) and census row. Pure: the as-of date
// decides what is in effect. The rules are docs/api-carriers.md's, "May I hire them?".
import { type Docket, formatDocket } from '../../contract/carriers/dockets.ts';
import type { RegistryGap } from '../../contract/carriers/profile.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import {
  AUTHORITY_KINDS,
  type AuthorityKind,
  type CarrierRegistry,
  type InsuranceRow,
  type RevocationRow,
} from './registry-types.ts';
import type { CensusRow } from './types.ts';
import type { Registration } from './registration.ts';

type Fields = Pick<
  CarrierProfile,
  'dockets' | 'operating_status' | 'authority' | 'insurance' | 'out_of_service_orders'
>;
type Authority = NonNullable<CarrierProfile['authority']>[number];
type Filing = NonNullable<CarrierProfile['insurance']>['filings'][number];
type Reason = CarrierProfile['operating_status']['reasons'][number];

const EMPTY: CarrierRegistry = { carriers: [], history: [], insurance: [], revocations: [], orders: [], dockets: [] };
const byDocket = (a: Docket, b: Docket) => formatDocket(a).localeCompare(formatDocket(b));
const newestFirst = (a: string | null, b: string | null) => (b ?? '').localeCompare(a ?? '');
const sameDocket = (a: Docket, b: Docket) => a.prefix === b.prefix && a.number === b.number;

/** What a registry input gap leaves unchecked, in words. */
const NOT_CHECKED: Record<RegistryGap, string> = {
  authority: 'operating authority was not checked: the build had no L&I carrier, authority history or revocation file',
  insurance: 'insurance was not checked: the build had no L&I insurance file',
  out_of_service_orders: 'out-of-service orders were not checked: the build had no out-of-service-order file',
};

/**
 * An authority's status from the docket's current L&I carrier row when there is one (A active, pending,
 * I inactive; revoked when a revocation took effect), else from its latest history action.
 */
function toAuthorities(r: CarrierRegistry, asOf: string): Authority[] {
  const keys = new Map<string, { docket: Docket; kind: AuthorityKind }>();
  const note = (docket: Docket, kind: AuthorityKind | null) => {
    if (kind) keys.set(`${formatDocket(docket)}\t${kind}`, { docket, kind });
  };
  for (const c of r.carriers)
    for (const kind of AUTHORITY_KINDS) if ((c.status[kind] ?? 'N') !== 'N' || c.pending[kind]) note(c.docket, kind);
  for (const h of r.history) note(h.docket, h.kind);
  for (const v of r.revocations) note(v.docket, v.kind);
  const out: Authority[] = [];
  for (const { docket, kind } of keys.values()) {
    const current = r.carriers.find((c) => sameDocket(c.docket, docket));
    const history = r.history
      .filter((h) => sameDocket(h.docket, docket) && h.kind === kind)
      .sort((a, b) => newestFirst(a.date, b.date) || newestFirst(a.disposition_date, b.disposition_date));
    const revocation = r.revocations
      .filter((v) => sameDocket(v.docket, docket) && v.kind === kind)
      .sort((a, b) => newestFirst(a.effective_date ?? a.serve_date, b.effective_date ?? b.serve_date))[0];
    const revoked = revocation?.effective_date != null && revocation.effective_date <= asOf;
    const latest = history[0];
    let status: Authority['status'];
    let since: string | null = null;
    const code = current?.status[kind] ?? null;
    if (code === 'A') {
      status = 'active';
      since = history.find((h) => /GRANT/i.test(h.action))?.date ?? null;
    } else if (current?.pending[kind]) status = 'pending';
    else if (revoked) {
      status = 'revoked';
      since = revocation!.effective_date;
    } else if (current) {
      status = 'inactive';
      since = latest?.disposition_date ?? null;
    } else if (latest && /REVOK/i.test(latest.disposition ?? '')) {
      status = 'revoked';
      since = latest.disposition_date;
    } else if (latest && latest.disposition === null && /GRANT/i.test(latest.action)) {
      status = 'active';
      since = latest.date;
    } else if (latest && latest.disposition === null) status = 'pending';
    else {
      status = 'inactive';
      since = latest?.disposition_date ?? null;
    }
    out.push({
      docket: formatDocket(docket),
      kind,
      status,
      effective_date: since,
      revocation: revocation ? toRevocation(revocation) : null,
      history: history.map((h) => ({
        action: h.action,
        date: h.date,
        disposition: h.disposition,
        disposition_date: h.disposition_date,
        carrier_id: h.dot,
      })),
    });
  }
  return out.sort(
    (a, b) => a.docket.localeCompare(b.docket) || AUTHORITY_KINDS.indexOf(a.kind) - AUTHORITY_KINDS.indexOf(b.kind),
  );
}

const toRevocation = (v: RevocationRow): NonNullable<Authority['revocation']> => ({
  type: v.type,
  serve_date: v.serve_date,
  effective_date: v.effective_date,
});

function filingStatus(f: InsuranceRow, asOf: string): Filing['status'] {
  if (f.historical || (f.cancellation_date !== null && f.cancellation_date <= asOf)) return 'cancelled';
  return f.effective_date !== null && f.effective_date > asOf ? 'pending' : 'active';
}

function toInsurance(r: CarrierRegistry, asOf: string, knowsRequired: boolean): NonNullable<Fields['insurance']> {
  const filings: Filing[] = r.insurance.map((f) => ({
    docket: formatDocket(f.docket),
    type: f.type,
    form: f.form,
    insurer: f.insurer,
    policy_number: f.policy_number,
    coverage_from: f.coverage_from,
    coverage_to: f.coverage_to,
    effective_date: f.effective_date,
    cancellation_date: f.cancellation_date,
    status: filingStatus(f, asOf),
  }));
  const rank = { active: 0, pending: 1, cancelled: 2 } as const;
  filings.sort(
    (a, b) =>
      rank[a.status] - rank[b.status] ||
      newestFirst(a.effective_date, b.effective_date) ||
      a.docket.localeCompare(b.docket),
  );
  // What must be on file: the strictest of the carrier's dockets.
  const rows = r.carriers;
  const required =
    knowsRequired && rows.length > 0
      ? {
          bipd: rows.reduce<number | null>(
            (m, c) => (c.bipd_required === null ? m : Math.max(m ?? 0, c.bipd_required)),
            null,
          ),
          cargo: rows.some((c) => c.cargo_required),
          bond: rows.some((c) => c.bond_required),
        }
      : null;
  let minimum: boolean | null = null;
  if (required) {
    const active = filings.filter((f) => f.status === 'active');
    const bipd = active.filter((f) => f.type === 'bipd').reduce((m, f) => Math.max(m, f.coverage_to ?? 0), 0);
    minimum =
      (required.bipd === null || bipd >= required.bipd) &&
      (!required.cargo || active.some((f) => f.type === 'cargo')) &&
      (!required.bond || active.some((f) => f.type === 'bond' || f.type === 'trust_fund'));
  }
  return { required, minimum_on_file: minimum, filings };
}

/** The profile's registry fields. `gaps`: the registry inputs the build did not have. */
export function toRegistryFields(
  registry: CarrierRegistry | undefined,
  census: Pick<CensusRow, 'carrier_operation' | 'authorized_for_hire'>,
  asOf: string,
  gaps: readonly RegistryGap[],
  hasCarrierFile: boolean,
): Fields {
  const r = registry ?? EMPTY;
  const authority = gaps.includes('authority') ? null : toAuthorities(r, asOf);
  const insurance = gaps.includes('insurance') ? null : toInsurance(r, asOf, hasCarrierFile);
  const orders = gaps.includes('out_of_service_orders')
    ? null
    : r.orders
        .map((o) => ({
          date: o.date,
          reason: o.reason,
          status: (o.rescinded_date !== null && o.rescinded_date <= asOf ? 'rescinded' : 'active') as
            | 'active'
            | 'rescinded',
          rescinded_date: o.rescinded_date,
        }))
        .sort((a, b) => newestFirst(a.date, b.date));

  const reasons: Reason[] = [];
  for (const o of orders ?? [])
    if (o.status === 'active')
      reasons.push({
        code: 'out_of_service_order',
        detail: `out-of-service order of ${o.date}${o.reason ? `: ${o.reason}` : ''}`,
      });
  // Operating authority is what for-hire interstate carriers need (49 CFR 365); others operate without it.
  const needsAuthority = census.authorized_for_hire === true && census.carrier_operation === 'A';
  if (authority && needsAuthority && !authority.some((a) => a.kind !== 'broker' && a.status === 'active')) {
    const revoked = authority.filter((a) => a.status === 'revoked');
    const pending = authority.filter((a) => a.status === 'pending');
    if (revoked.length > 0)
      reasons.push({
        code: 'authority_revoked',
        detail: revoked
          .map((a) => `${a.docket} ${a.kind} authority revoked${a.effective_date ? ` ${a.effective_date}` : ''}`)
          .join('; '),
      });
    else if (pending.length > 0)
      reasons.push({
        code: 'authority_pending',
        detail: pending.map((a) => `${a.docket} ${a.kind} authority pending`).join('; '),
      });
    else
      reasons.push({
        code: 'no_active_authority',
        detail: 'authorized for hire in interstate commerce, with no active operating authority',
      });
  }
  if (insurance?.minimum_on_file === false)
    reasons.push({ code: 'insurance_not_on_file', detail: 'the insurance the carrier must file is not all on file' });
  const refused = reasons.length > 0;
  for (const g of gaps) reasons.push({ code: 'not_checked', detail: NOT_CHECKED[g] });
  const known = gaps.length < 3;
  const dockets = r.dockets
    .filter((d) => d.current)
    .map((d) => d.docket)
    .sort(byDocket)
    .map(formatDocket);
  return {
    dockets: [...new Set(dockets)],
    operating_status: { allowed_to_operate: refused ? false : known ? true : null, reasons },
    authority,
    insurance,
    out_of_service_orders: orders,
  };
}

/**
 * A carrier's lines kept on disk (registry-read.ts TAGS; `X` its census registration, `D` a docket it holds
 * or held), parsed. A carrier number given twice in the census keeps its first registration.
 */
export function parseCarrierLines(lines: readonly string[] | undefined): {
  registration: Registration | undefined;
  registry: CarrierRegistry | undefined;
} {
  if (!lines) return { registration: undefined, registry: undefined };
  let registration: Registration | undefined;
  let registry: CarrierRegistry | undefined;
  for (const line of lines) {
    const tag = line[0];
    const row = JSON.parse(line.slice(2));
    if (tag === 'X') {
      registration ??= row as Registration;
      continue;
    }
    registry ??= { carriers: [], history: [], insurance: [], revocations: [], orders: [], dockets: [] };
    if (tag === 'C') registry.carriers.push(row);
    else if (tag === 'H') registry.history.push(row);
    else if (tag === 'I') registry.insurance.push(row);
    else if (tag === 'R') registry.revocations.push(row);
    else if (tag === 'O') registry.orders.push(row);
    else if (tag === 'D') registry.dockets.push(row);
    else throw new Error(`a carrier line has the unknown tag ${tag}`);
  }
  return { registration, registry };
}
