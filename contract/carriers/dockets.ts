// FMCSA docket numbers (MC, FF, MX: operating authority for motor carriers and brokers, freight forwarders,
// Mexico-domiciled carriers), as search reads them and as the build keys its docket index (record store
// private/dockets: a docket's carriers, the current holder first).

export const DOCKET_PREFIXES = ['MC', 'FF', 'MX'] as const;
export type DocketPrefix = (typeof DOCKET_PREFIXES)[number];

export interface Docket {
  prefix: DocketPrefix;
  number: number;
}

/**
 * `MC 123456`, `MC-123456`, `mc123456`, `MC#123456`, `MC 000123`, `FF058485`, `MX 1234`: a docket look-up
 * (docs/contracts/carriers.md, "May I hire them?"). Up to 8 digits, zero padding ignored.
 */
export const DOCKET_QUERY = /^\s*(mc|ff|mx)[\s#-]*(\d{1,8})\s*$/i;

/** The docket a search text or an input field names, or undefined; 0 is no docket. */
export function parseDocket(text: string | undefined): Docket | undefined {
  const m = DOCKET_QUERY.exec(text ?? '');
  if (!m) return undefined;
  const number = Number(m[2]);
  if (number === 0) return undefined;
  return { prefix: m[1]!.toUpperCase() as DocketPrefix, number };
}

/** `MC123456`, `FF001724`: FMCSA's own form, at least six digits. */
export function formatDocket(d: Docket): string {
  return `${d.prefix}${String(d.number).padStart(6, '0')}`;
}

/** The docket index's key: a prefix's place × 10^8 + the number, below 2^32. */
export function toDocketKey(d: Docket): number {
  return (DOCKET_PREFIXES.indexOf(d.prefix) + 1) * 1e8 + d.number;
}

/** The docket of an index key. */
export function fromDocketKey(key: number): Docket {
  const prefix = DOCKET_PREFIXES[Math.floor(key / 1e8) - 1];
  if (!prefix) throw new Error(`${key} is not a docket key`);
  return { prefix, number: key % 1e8 };
}
