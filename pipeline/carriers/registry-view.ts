// What the change record compares of a carrier's registry fields (docs/contracts/changes.md): whether it may
// operate, each authority's status, whether the required insurance is on file, and its out-of-service orders
// in effect. A field is compared only when both builds had the input it rests on: a build that lacked the
// L&I files (or was made before they were read) is no reason to call every carrier changed.
import type { Field } from '../../contract/core/changes.ts';
import { pointerToken } from '../../contract/core/changes.ts';
import { REGISTRY_GAPS, type RegistryGap } from '../../contract/carriers/profile.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';

type Registry = Pick<CarrierProfile, 'operating_status' | 'authority' | 'insurance' | 'out_of_service_orders'>;

/** The compact form kept in a build's views: the inputs the build had (`k`), then the values. */
export interface RegistryValues {
  k: RegistryGap[];
  a: boolean | null;
  d?: Record<string, string>;
  i?: boolean | null;
  o?: number;
}

const MARK = '?';
const GROUPS: Record<RegistryGap, string> = {
  authority: '/authority/',
  insurance: '/insurance/',
  out_of_service_orders: '/out_of_service_orders/',
};
const ALLOWED = '/operating_status/allowed_to_operate';

export function registryValues(p: Registry): RegistryValues {
  const k = REGISTRY_GAPS.filter(
    (g) => (g === 'authority' ? p.authority : g === 'insurance' ? p.insurance : p.out_of_service_orders) !== null,
  );
  const out: RegistryValues = { k, a: p.operating_status.allowed_to_operate };
  if (p.authority) out.d = Object.fromEntries(p.authority.map((x) => [`${x.docket}:${x.kind}`, x.status]));
  if (p.insurance) out.i = p.insurance.minimum_on_file;
  if (p.out_of_service_orders) out.o = p.out_of_service_orders.filter((o) => o.status === 'active').length;
  return out;
}

/** The pointers of a registry values object, with a marker for each input the build had. */
export function registryView(r: RegistryValues, into: Map<string, unknown>): void {
  for (const g of r.k) into.set(`${MARK}${g}`, true);
  into.set(ALLOWED, r.a);
  for (const [token, status] of Object.entries(r.d ?? {})) into.set(`/authority/${pointerToken(token)}/status`, status);
  if (r.i !== undefined) into.set('/insurance/minimum_on_file', r.i);
  if (r.o !== undefined) into.set('/out_of_service_orders/active', r.o);
}

/**
 * The two views with what is not comparable left out: a group of fields whose input one build lacked, and
 * `allowed_to_operate` unless both builds checked the same inputs; the markers always.
 */
export function alignRegistry(
  before: ReadonlyMap<string, unknown>,
  after: ReadonlyMap<string, unknown>,
): [Map<string, unknown>, Map<string, unknown>] {
  const had = (v: ReadonlyMap<string, unknown>) => REGISTRY_GAPS.filter((g) => v.has(`${MARK}${g}`));
  const both = had(before).filter((g) => after.has(`${MARK}${g}`));
  const sameInputs = had(before).length === both.length && had(after).length === both.length;
  const keep = (path: string) => {
    if (path.startsWith(MARK)) return false;
    if (path === ALLOWED) return sameInputs;
    const group = REGISTRY_GAPS.find((g) => path.startsWith(GROUPS[g]));
    return group === undefined || both.includes(group);
  };
  const filter = (v: ReadonlyMap<string, unknown>) => new Map([...v].filter(([path]) => keep(path)));
  return [filter(before), filter(after)];
}

/** The notable words of registry fields that changed. */
export function registryNotable(f: Field, into: Set<string>): void {
  if (f.path.startsWith('/authority/') && f.path.endsWith('/status') && f.to === 'revoked')
    into.add('authority_revoked');
  else if (f.path === '/out_of_service_orders/active' && Number(f.to ?? 0) > Number(f.from ?? 0))
    into.add('out_of_service_order');
  else if (f.path === '/insurance/minimum_on_file' && f.from === true && f.to === false) into.add('insurance_lapsed');
}
