// What changed per carrier since the published build (docs/contracts/changes.md, "What is compared"), walked
// beside the profile loop: the new profiles come in carrier_id order, the published build's views (what is
// compared of each carrier, kept by each build) are read in the same order from their record store, so memory
// holds one carrier of each and the changes, never a whole build.
// National averages are the build's `global` changes, not a change of every carrier.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { diffViews, type Field, pointerToken } from '../../contract/core/changes.ts';
import { BASICS } from '../../contract/carriers/basics.ts';
import { PROFILES } from '../../contract/carriers/layout.ts';
import { CARRIER_VIEWS } from '../../contract/carriers/trend.ts';
import { privateDirOf } from '../../contract/core/layout.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { type ComparedBuild, type Comparison, compareEntity, type EntityView, notCompared } from '../core/changes.ts';
import { ChangeLog } from '../core/change-log.ts';
import { alignRegistry, type RegistryValues, registryNotable, registryValues, registryView } from './registry-view.ts';
import { openRecordCursor } from '../core/record-reader.ts';
import type { RecordStoreWriter } from '../core/record-store.ts';
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
  | 'operating_status'
  | 'authority'
  | 'insurance'
  | 'out_of_service_orders'
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
  registryView(registryValues(p), view);
  return view;
}

export const CARRIER_COMPARISON: Comparison = {
  notable(fields: readonly Field[]): string[] {
    const notable = new Set<string>();
    for (const f of fields) {
      if (f.path.startsWith('/categories/') && f.path.endsWith('/alert'))
        notable.add(f.to === true ? 'alert_started' : 'alert_ended');
      else if (f.path === '/legal_name') notable.add('name_changed');
      else registryNotable(f, notable);
    }
    return [...notable].sort();
  },
  // A percentile that moves by less than half a point is not a change.
  align: alignRegistry,
  same: (path, from, to) =>
    path.endsWith('/percentile') && typeof from === 'number' && typeof to === 'number' && Math.abs(from - to) < 0.5,
};

const toView = (p: Compared): EntityView => ({ name: p.legal_name, view: carrierView(p) });

/** The pointers of carrierView before the categories, in its order. */
const FIXED = [
  '/legal_name',
  '/dba_name',
  '/city',
  '/state',
  '/power_units',
  '/drivers',
  '/inspections/total',
  '/crashes/total',
  '/rates/vehicle_oos_rate',
  '/rates/driver_oos_rate',
  '/rates/hazmat_oos_rate',
] as const;

/**
 * carrierView's values as one flat array (the fixed fields, then category, percentile and alert of each
 * category): what the next build compares with, as JSON text. Cheaper to make than the view itself, which
 * is made only for a carrier whose text differs.
 */
export function viewValues(p: Compared): unknown[] {
  const values: unknown[] = [
    p.legal_name,
    p.dba_name,
    p.city,
    p.state,
    p.power_units,
    p.drivers,
    p.inspections.total,
    p.crashes.total,
    p.rates.vehicle_oos_rate,
    p.rates.driver_oos_rate,
    p.rates.hazmat_oos_rate,
  ];
  // Each category as its index in BASICS, its percentile and its alert as 0 or 1: a few bytes, not its name.
  for (const c of p.categories) values.push(BASICS.indexOf(c.category), c.percentile, c.alert ? 1 : 0);
  // The registry fields as one object after the categories (a view kept before them has none).
  values.push(registryValues(p));
  return values;
}

/** The view viewValues' array stands for. */
export function viewOfValues(values: readonly unknown[]): EntityView {
  const view = new Map<string, unknown>(FIXED.map((path, i) => [path, values[i]]));
  let i = FIXED.length;
  for (; i + 2 < values.length && typeof values[i] === 'number'; i += 3) {
    const at = `/categories/${pointerToken(BASICS[values[i] as number] ?? String(values[i]))}`;
    view.set(`${at}/percentile`, values[i + 1]);
    view.set(`${at}/alert`, values[i + 2] === 1);
  }
  const registry = values[i];
  if (registry !== null && typeof registry === 'object') registryView(registry as RegistryValues, view);
  return { name: String(values[0] ?? ''), view };
}

const nationalView = (p: Pick<CarrierProfile, 'national'>) =>
  new Map(Object.entries(p.national).map(([k, v]) => [`/national/${pointerToken(k)}`, v]));

export interface CarrierComparison {
  /** Every new profile, in ascending carrier_id. */
  add(profile: Compared & Pick<CarrierProfile, 'national'>): Promise<void>;
  /** The carriers the published build had and this one has not, then the result. */
  finish(): Promise<ComparedBuild & { changes: ChangeLog }>;
}

/** A published carrier as the comparison reads it: its view's JSON text when it has one, and its view. */
interface Published {
  key: number;
  text?: string;
  view(): EntityView;
}

/** Reads the published build's views (or, for a build made before they were kept, its profiles) in order. */
async function openPublished(dir: string): Promise<{ next(): Promise<Published | undefined>; close(): Promise<void> }> {
  const views = join(dir, CARRIER_VIEWS.slice('private/'.length));
  const fromViews = existsSync(`${views}.idx`);
  const cursor = await openRecordCursor(fromViews ? views : join(dir, PROFILES.slice('private/'.length)));
  return {
    async next() {
      const r = await cursor.next();
      if (!r) return undefined;
      if (fromViews) {
        const text = r.body.toString('utf8');
        return { key: r.key, text, view: () => viewOfText(text) };
      }
      const p = JSON.parse(r.body.toString('utf8')) as Compared;
      if (p.carrier_id !== r.key) throw new Error(`profile ${r.key} names carrier ${p.carrier_id}`);
      return { key: r.key, view: () => toView(p) };
    },
    close: () => cursor.close(),
  };
}

const viewOfText = (text: string): EntityView => viewOfValues(JSON.parse(text) as unknown[]);

/** The national averages of the published build, from its first profile; undefined when it has none. */
async function publishedNational(dir: string): Promise<Map<string, unknown> | undefined> {
  const cursor = await openRecordCursor(join(dir, PROFILES.slice('private/'.length)));
  try {
    const first = await cursor.next();
    return first && nationalView(JSON.parse(first.body.toString('utf8')) as Pick<CarrierProfile, 'national'>);
  } finally {
    await cursor.close();
  }
}

/**
 * Compares with the published build at `live` as the profiles are made, and writes this build's views
 * (CARRIER_VIEWS) for the next build to compare with: a carrier whose view's text is the same as published
 * is unchanged without being parsed. A published build that cannot be read is compared with nothing (a new
 * history starts, and the warnings say so).
 */
export async function openCarrierComparison(
  live: string,
  effects: SinkEffects,
  viewsOut: RecordStoreWriter,
): Promise<CarrierComparison> {
  let changes = new ChangeLog();
  const warnings: string[] = [];
  let previous: string | null = null;
  let published: Awaited<ReturnType<typeof openPublished>> | undefined;
  let pending: Published | undefined;
  let national: Map<string, unknown> | undefined;
  let global: Field[] | undefined;
  const fail = async (err: unknown) => {
    warnings.push(notCompared(err));
    previous = null;
    changes = new ChangeLog();
    await published?.close().catch(() => undefined);
    published = undefined;
  };
  try {
    const body = await effects.readFile(join(live, 'manifest.json'));
    if (body) {
      const manifest = JSON.parse(body.toString('utf8')) as Manifest;
      const dir = privateDirOf(live, manifest);
      if (typeof manifest.data_version !== 'string' || dir === undefined)
        throw new Error('manifest.json names no data_version or no profiles');
      national = await publishedNational(dir);
      published = await openPublished(dir);
      previous = manifest.data_version;
      pending = await published.next();
    }
  } catch (err) {
    await fail(err);
  }
  const push = (id: number, before?: EntityView, after?: EntityView) => {
    const change = compareEntity(String(id), before, after, CARRIER_COMPARISON);
    if (change) changes.add(change);
  };
  return {
    async add(profile) {
      const text = JSON.stringify(viewValues(profile));
      await viewsOut.add(profile.carrier_id, Buffer.from(text));
      if (!published) return;
      try {
        global ??= national ? diffViews(national, nationalView(profile)) : [];
        while (pending && pending.key < profile.carrier_id) {
          push(pending.key, pending.view());
          pending = await published.next();
        }
        if (pending && pending.key === profile.carrier_id) {
          // The same text is the same view: most carriers of a month, never parsed.
          if (pending.text !== text) push(profile.carrier_id, pending.view(), toView(profile));
          pending = await published.next();
        } else push(profile.carrier_id, undefined, toView(profile));
      } catch (err) {
        await fail(err);
      }
    },
    async finish() {
      if (published) {
        try {
          while (pending) {
            push(pending.key, pending.view());
            pending = await published.next();
          }
          await published.close();
        } catch (err) {
          await fail(err);
        }
      }
      return { previous, changes, global: global ?? [], warnings };
    },
  };
}
