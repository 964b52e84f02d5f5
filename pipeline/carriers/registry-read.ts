// Reads the registry inputs (registry-inputs.ts) into the carriers' lines on disk, by carrier number, and the
// docket pairs. A row of a carrier number not in the census, or of none, is counted in its file's account
// (`unknown_carrier`, `no_carrier_number`), never dropped silently: the report lists them.
import type { InputAccount, InputLedger } from '../core/build.ts';
import type { RecognizedFile } from '../core/inputs.ts';
import type { KeyedSpill } from '../core/keyed-spill.ts';
import { toDocketKey } from '../../contract/carriers/dockets.ts';
import type { RegistryGap } from '../../contract/carriers/profile.ts';
import { DocketPairs, toDayNumber } from './docket-pairs.ts';
import type { CarriersInputKind } from './inputs.ts';
import {
  normalizeAuthHist,
  normalizeInsurance,
  normalizeInsuranceHistory,
  normalizeLiCarrier,
  normalizeOosOrder,
  normalizeRevocation,
} from './registry-inputs.ts';

/** The line tags of registry rows among a carrier's lines (`X` is its census registration). */
export const TAGS = {
  li_carrier: 'C',
  authority_history: 'H',
  insurance: 'I',
  revocation: 'R',
  oos_order: 'O',
} as const;

const later = (a: string | null, b: string | null) => ((a ?? '') > (b ?? '') ? a : b);

export async function readRegistry(
  ctx: InputLedger<CarriersInputKind, InputAccount<CarriersInputKind>>,
  files: (kind: CarriersInputKind) => RecognizedFile<CarriersInputKind>[],
  reference: string,
  known: (dot: number) => boolean,
  lines: KeyedSpill,
): Promise<DocketPairs> {
  const pairs = new DocketPairs();
  const keep = (tag: string, dot: number | null, row: object): 'used' | 'unknown_carrier' | 'no_carrier_number' => {
    if (dot === null) return 'no_carrier_number';
    if (!known(dot)) return 'unknown_carrier';
    lines.add(dot, `${tag}\t${JSON.stringify(row)}`);
    return 'used';
  };
  for (const f of files('li_carrier'))
    await ctx.read(
      f,
      (raw, file, record) => normalizeLiCarrier(raw, file, record, reference),
      (row) => {
        const used = keep(TAGS.li_carrier, row.dot, row);
        if (used === 'used') pairs.add(toDocketKey(row.docket), row.dot!, 0, true);
        return used;
      },
    );
  for (const f of files('authority_history'))
    await ctx.read(
      f,
      (raw, file, record) => normalizeAuthHist(raw, file, record, reference),
      (row) => {
        const used = keep(TAGS.authority_history, row.dot, row);
        if (used === 'used')
          pairs.add(toDocketKey(row.docket), row.dot!, toDayNumber(later(row.date, row.disposition_date)));
        return used;
      },
    );
  for (const kind of ['insurance', 'insurance_history'] as const)
    for (const f of files(kind))
      await ctx.read(
        f,
        (raw, file, record) =>
          (kind === 'insurance' ? normalizeInsurance : normalizeInsuranceHistory)(raw, file, record, reference),
        (row) => keep(TAGS.insurance, row.dot, row),
      );
  for (const f of files('revocation'))
    await ctx.read(
      f,
      (raw, file, record) => normalizeRevocation(raw, file, record, reference),
      (row) => {
        const used = keep(TAGS.revocation, row.dot, row);
        if (used === 'used')
          pairs.add(toDocketKey(row.docket), row.dot!, toDayNumber(later(row.serve_date, row.effective_date)));
        return used;
      },
    );
  for (const f of files('oos_order'))
    await ctx.read(
      f,
      (raw, file, record) => normalizeOosOrder(raw, file, record, reference),
      (row) => keep(TAGS.oos_order, row.dot, row),
    );
  return pairs;
}

/** The registry inputs the build had no row of, in the order `data_gaps` lists them. */
export function toRegistryGaps(accounts: readonly { kind: CarriersInputKind; rows: number }[]): RegistryGap[] {
  const had = (...kinds: CarriersInputKind[]) => accounts.some((a) => kinds.includes(a.kind) && a.rows > 0);
  const gaps: RegistryGap[] = [];
  if (!had('li_carrier', 'authority_history', 'revocation')) gaps.push('authority');
  if (!had('insurance', 'insurance_history')) gaps.push('insurance');
  if (!had('oos_order')) gaps.push('out_of_service_orders');
  return gaps;
}
