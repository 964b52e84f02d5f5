// The registry inputs of the carriers build, normalized (registry-inputs.ts reads them): FMCSA's Licensing and
// Insurance files (carrier authority, authority history, insurance active and pending, insurance history,
// revocations) and out-of-service orders. Each row is kept per carrier number until the profiles are written.
import type { Docket } from '../../contract/carriers/dockets.ts';

export type AuthorityKind = 'common' | 'contract' | 'broker';
export const AUTHORITY_KINDS: readonly AuthorityKind[] = ['common', 'contract', 'broker'];

/** L&I authority status codes: A active, I inactive, N none. */
export type AuthorityCode = 'A' | 'I' | 'N';

/** L&I `Carrier`: a docket's current authority and what it must have on file. */
export interface LiCarrierRow {
  docket: Docket;
  /** Null for a docket with no carrier number (00000000): counted, not used. */
  dot: number | null;
  status: Record<AuthorityKind, AuthorityCode | null>;
  pending: Record<AuthorityKind, boolean>;
  /** A revocation is pending against the authority of that kind. */
  revoking: Record<AuthorityKind, boolean>;
  /** Dollars (the file writes thousands); null when none is required. */
  bipd_required: number | null;
  cargo_required: boolean;
  bond_required: boolean;
  /** Dollars on file, as the file totals them; null when not given. */
  bipd_on_file: number | null;
}

/** L&I `AuthHist`: one action on a docket's authority. */
export interface AuthHistRow {
  docket: Docket;
  dot: number | null;
  kind: AuthorityKind | null;
  action: string;
  date: string | null;
  disposition: string | null;
  disposition_date: string | null;
}

export type FilingType = 'bipd' | 'cargo' | 'bond' | 'trust_fund' | 'other';

/** L&I `ActPendInsur` (active or pending) and `InsHist` (cancelled or replaced): one insurance filing. */
export interface InsuranceRow {
  docket: Docket;
  dot: number | null;
  form: string | null;
  type: FilingType;
  insurer: string | null;
  policy_number: string | null;
  /** Dollars. */
  coverage_from: number | null;
  coverage_to: number | null;
  effective_date: string | null;
  cancellation_date: string | null;
  /** From the history file: the filing has ended. */
  historical: boolean;
}

/** L&I `Revocation`. */
export interface RevocationRow {
  docket: Docket;
  dot: number | null;
  kind: AuthorityKind | null;
  serve_date: string | null;
  type: string;
  effective_date: string | null;
}

/** An out-of-service order. */
export interface OosOrderRow {
  dot: number;
  date: string;
  reason: string | null;
  /** The order was rescinded (lifted) on this date; null while in effect. */
  rescinded_date: string | null;
}

/** What one carrier's registry lines hold, grouped (registry.ts reads them back). */
export interface CarrierRegistry {
  carriers: LiCarrierRow[];
  history: AuthHistRow[];
  insurance: InsuranceRow[];
  revocations: RevocationRow[];
  orders: OosOrderRow[];
  /** Dockets this carrier holds now (the docket index's current holder), and those it held before. */
  dockets: { docket: Docket; current: boolean }[];
}
