// What changed per carrier since the published build (docs/contracts/changes.md, "What is compared"), walked
// beside the profile loop: the new profiles come in carrier_id order, the published ones are read in the same
// order from their record store, so memory holds one profile of each and the changes, never a whole build.
// National averages are the build's `global` changes, not a change of every carrier.
import { join } from 'node:path';
import { diffViews, type Field, pointerToken } from '../../contract/core/changes.ts';
import { PROFILES } from '../../contract/carriers/layout.ts';
import { privateDirOf } from '../../contract/core/layout.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { type ComparedBuild, type Comparison, compareEntity, type EntityView, notCompared } from '../core/changes.ts';
import { ChangeLog } from '../core/change-log.ts';
import { openRecordCursor, type RecordCursor } from '../core/record-reader.ts';
import type { SinkEffects } from '../core/sink.ts';

type Compared = Pick<
  CarrierProfile,
  | 'carrier_id'
  | 'legal_name'
  | 'dba_name'
  | 'city'
  | 'state'
  | 'power_units'
  | 'drivers'
  | 'inspections'
  | 'crashes'
  | 'rates'
  | 'categories'
>;

/** The pointers a carrier is compared on; categories keyed by name (`/categories/unsafe_driving/percentile`). */
export function carrierView(p: Compared): Map<string, unknown> {
  const view = new Map<string, unknown>([
    ['/legal_name', p.legal_name],
    ['/dba_name', p.dba_name],
    ['/city', p.city],
    ['/state', p.state],
    ['/power_units', p.power_units],
    ['/drivers', p.drivers],
    ['/inspections/total', p.inspections.total],
    ['/crashes/total', p.crashes.total],
    ['/rates/vehicle_oos_rate', p.rates.vehicle_oos_rate],
    ['/rates/driver_oos_rate', p.rates.driver_oos_rate],
    ['/rates/hazmat_oos_rate', p.rates.hazmat_oos_rate],
  ]);
  for (const c of p.categories) {
    const at = `/categories/${pointerToken(c.category)}`;
    view.set(`${at}/percentile`, c.percentile);
    view.set(`${at}/alert`, c.alert);
  }
  return view;
}

export const CARRIER_COMPARISON: Comparison = {
  notable(fields: readonly Field[]): string[] {
    const notable = new Set<string>();
    for (const f of fields) {
      if (f.path.endsWith('/alert')) notable.add(f.to === true ? 'alert_started' : 'alert_ended');
      else if (f.path === '/legal_name') notable.add('name_changed');
    }
    return [...notable].sort();
  },
  // A percentile that moves by less than half a point is not a change.
  same: (path, from, to) =>
    path.endsWith('/percentile') && typeof from === 'number' && typeof to === 'number' && Math.abs(from - to) < 0.5,
};

const toView = (p: Compared): EntityView => ({ name: p.legal_name, view: carrierView(p) });

const nationalView = (p: Pick<CarrierProfile, 'national'>) =>
  new Map(Object.entries(p.national).map(([k, v]) => [`/national/${pointerToken(k)}`, v]));

export interface CarrierComparison {
  /** Every new profile, in ascending carrier_id, with the bytes the build stores for it. */
  add(profile: Compared & Pick<CarrierProfile, 'national'>, body: Buffer): Promise<void>;
  /** The carriers the published build had and this one has not, then the result. */
  finish(): Promise<ComparedBuild & { changes: ChangeLog }>;
}

/**
 * Compares with the published build at `live` as the profiles are made. A published build whose profiles
 * cannot be read is compared with nothing (a new history starts, and the warnings say so).
 */
export async function openCarrierComparison(live: string, effects: SinkEffects): Promise<CarrierComparison> {
  let changes = new ChangeLog();
  const warnings: string[] = [];
  let previous: string | null = null;
  let cursor: RecordCursor | undefined;
  let pending: { key: number; body: Buffer } | undefined;
  let global: Field[] | undefined;
  const fail = async (err: unknown) => {
    warnings.push(notCompared(err));
    previous = null;
    changes = new ChangeLog();
    await cursor?.close().catch(() => undefined);
    cursor = undefined;
  };
  try {
    const body = await effects.readFile(join(live, 'manifest.json'));
    if (body) {
      const manifest = JSON.parse(body.toString('utf8')) as Manifest;
      const dir = privateDirOf(live, manifest);
      if (typeof manifest.data_version !== 'string' || dir === undefined)
        throw new Error('manifest.json names no data_version or no profiles');
      cursor = await openRecordCursor(join(dir, PROFILES.slice('private/'.length)));
      previous = manifest.data_version;
      pending = await cursor.next();
    }
  } catch (err) {
    await fail(err);
  }
  const parse = (r: { key: number; body: Buffer }) => {
    const p = JSON.parse(r.body.toString('utf8')) as Compared & Pick<CarrierProfile, 'national'>;
    if (p.carrier_id !== r.key) throw new Error(`profile ${r.key} names carrier ${p.carrier_id}`);
    return p;
  };
  const push = (id: number, before?: Compared, after?: Compared) => {
    const change = compareEntity(String(id), before && toView(before), after && toView(after), CARRIER_COMPARISON);
    if (change) changes.add(change);
  };
  return {
    async add(profile, body) {
      if (!cursor) return;
      try {
        while (pending && pending.key < profile.carrier_id) {
          push(pending.key, parse(pending));
          pending = await cursor.next();
        }
        if (pending && pending.key === profile.carrier_id) {
          // The same bytes are the same profile: most carriers of a build of unchanged inputs, read unparsed.
          if (global === undefined || !pending.body.equals(body)) {
            const before = parse(pending);
            global ??= diffViews(nationalView(before), nationalView(profile));
            push(profile.carrier_id, before, profile);
          }
          pending = await cursor.next();
        } else push(profile.carrier_id, undefined, profile);
      } catch (err) {
        await fail(err);
      }
    },
    async finish() {
      if (cursor) {
        try {
          while (pending) {
            push(pending.key, parse(pending));
            pending = await cursor.next();
          }
          await cursor.close();
        } catch (err) {
          await fail(err);
        }
      }
      return { previous, changes, global: global ?? [], warnings };
    },
  };
}
