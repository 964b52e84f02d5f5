// Monthly editions of the carriers demo (pipeline/demo/carriers/index.ts, `edition`): the same seed a month
// later keeps the events both windows hold, drops the oldest month's, adds a new month's, and lets a few
// carriers leave and join; builds of editions 1 then 2 record the movement, alerts starting and ending.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesIndex } from '../../contract/core/changes.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import {
  CENSUS_TXT_FILE,
  type CarriersDemoFacts,
  INSPECTION_FILE,
  writeCarriersDemo,
} from '../../pipeline/demo/carriers/index.ts';
import { INSURANCE_FILE, OOS_ORDER_FILE, REVOCATION_FILE } from '../../pipeline/demo/carriers/registry.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'shardline-carrier-editions-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const MONTHS: Record<string, number> = {
  JAN: 0,
  FEB: 1,
  MAR: 2,
  APR: 3,
  MAY: 4,
  JUN: 5,
  JUL: 6,
  AUG: 7,
  SEP: 8,
  OCT: 9,
  NOV: 10,
  DEC: 11,
};
/** `DD-MON-YY` as YYYY-MM-DD. */
const isoOf = (d: string) => {
  const [day, mon, yy] = d.split('-');
  return new Date(Date.UTC(2000 + Number(yy), MONTHS[mon!]!, Number(day))).toISOString().slice(0, 10);
};

/** Each inspection as (carrier, date, level, state): what an edition's file says about it, without its ids. */
function inspections(dir: string): string[] {
  const [header, ...rows] = readFileSync(join(dir, INSPECTION_FILE), 'utf8').trim().split('\n');
  const col = (name: string) => header!.split(',').indexOf(name);
  const [dot, date, level, state] = ['DOT_Number', 'Insp_Date', 'Insp_level_ID', 'Report_State'].map(col);
  return rows.map((r) => {
    const f = r.split(',');
    return `${f[dot!]} ${isoOf(f[date!]!)} ${f[level!]} ${f[state!]}`;
  });
}

const carriers = (dir: string) =>
  new Set(
    readFileSync(join(dir, CENSUS_TXT_FILE), 'utf8')
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => Number(l.slice(1, l.indexOf('"', 1)))),
  );

describe('carriers demo editions', () => {
  let one: CarriersDemoFacts;
  let two: CarriersDemoFacts;
  const first = () => join(root, 'e1');
  const second = () => join(root, 'e2');
  beforeAll(async () => {
    one = (await writeCarriersDemo(first(), { edition: 1 })).facts;
    two = (await writeCarriersDemo(second(), { edition: 2 })).facts;
  });

  it('moves the window a month on: the events of the months both hold are the same, the oldest go, new ones come', () => {
    expect([one.asOf, two.asOf]).toEqual(['2026-10-31', '2026-11-30']);
    const a = inspections(first());
    const b = inspections(second());
    const later = carriers(second());
    const both = new Set([...carriers(first())].filter((dot) => later.has(dot)));
    // Both windows: after 2024-11-30 up to 2026-10-31, for the carriers both editions have.
    const shared = (rows: string[]) =>
      rows.filter((r) => {
        const [dot, day] = r.split(' ');
        return day! > '2024-11-30' && day! <= '2026-10-31' && both.has(Number(dot));
      });
    expect(shared(b).sort()).toEqual(shared(a).sort());
    expect(a.some((r) => r.split(' ')[1]! <= '2024-11-30')).toBe(true);
    expect(b.some((r) => r.split(' ')[1]! > '2026-10-31')).toBe(true);
    expect(b.every((r) => r.split(' ')[1]! > '2024-11-30')).toBe(true);
  });

  it('ends the latest edition at the demo’s date when told which is the latest (a demo start’s three)', async () => {
    const dates = [];
    for (const edition of [1, 2, 3])
      dates.push((await writeCarriersDemo(join(root, `latest${edition}`), { edition, latestEdition: 3 })).facts.asOf);
    expect(dates).toEqual(['2026-08-31', '2026-09-30', '2026-10-31']);
    await expect(writeCarriersDemo(join(root, 'bad'), { edition: 14 })).rejects.toThrow(
      /edition must be an integer from 1 to 13/,
    );
  });

  it('lets a few carriers leave the census and a few new ones join, never a planted one', () => {
    const a = carriers(first());
    const b = carriers(second());
    const left = [...a].filter((d) => !b.has(d));
    const joined = [...b].filter((d) => !a.has(d));
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(a.size * 0.02);
    expect(joined.length).toBe(Math.floor(3000 * 0.003));
    expect(Math.min(...joined)).toBeGreaterThan(Math.max(...a));
    for (const planted of [one.outlier.dot, one.bigFleet, one.zeroMileage, one.emptyPowerUnits])
      expect(b).toContain(planted);
    expect(two.carriers).toBe(b.size);
  });

  it('builds edition 2 over edition 1 with carriers added, removed and changed, alerts starting and ending', async () => {
    const out = join(root, 'out');
    await buildCarriers({ input: first(), outDir: out });
    const built = await buildCarriers({ input: second(), outDir: out });
    const [entry] = JSON.parse(readFileSync(join(out, 'carriers/changes/index.json'), 'utf8'))
      .builds as ChangesIndex['builds'];
    expect(entry!.data_version).toBe(built.data_version);
    expect(entry!.counts.added).toBe(Math.floor(3000 * 0.003));
    expect(entry!.counts.removed).toBeGreaterThan(0);
    expect(entry!.counts.changed).toBeGreaterThan(100);
    const manifest = JSON.parse(readFileSync(join(out, 'carriers/manifest.json'), 'utf8'));
    const key = (manifest.private_checksums_sha256 as string).slice(0, 16);
    const notable = JSON.parse(
      readFileSync(join(out, `carriers.private/${key}/changes/${built.data_version}.notable.json`), 'utf8'),
    ) as Record<string, number[]>;
    expect(notable.alert_started?.length).toBeGreaterThan(0);
    expect(notable.alert_ended?.length).toBeGreaterThan(0);

    // A lapse drawn after edition 1's day shows in edition 2's files and, from them, in the change record.
    const changes = JSON.parse(
      readFileSync(join(out, `carriers.private/${key}/changes/${built.data_version}.json`), 'utf8'),
    ) as { changes: { id: string }[] };
    const named = (word: string) => (notable[word] ?? []).map((i) => Number(changes.changes[i]!.id)).sort();
    const was = carriers(first());
    const stay = new Set([...carriers(second())].filter((d) => was.has(d)));
    const dots = (dir: string, file: string, keep: (row: string[]) => boolean = () => true) =>
      new Set(
        readFileSync(join(dir, file), 'utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',').map((f) => f.replaceAll('"', '')))
          .filter(keep)
          .map((f) => Number(f[file === OOS_ORDER_FILE ? 0 : 1])),
      );
    const gained = (file: string, keep?: (row: string[]) => boolean) => {
      const before = dots(first(), file, keep);
      return [...dots(second(), file, keep)].filter((d) => !before.has(d) && stay.has(d)).sort();
    };
    const lost = (file: string) => {
      const after = dots(second(), file);
      return [...dots(first(), file)].filter((d) => !after.has(d) && stay.has(d)).sort();
    };
    const lapsed = lost(INSURANCE_FILE);
    const revoked = gained(REVOCATION_FILE);
    const ordered = gained(OOS_ORDER_FILE, (f) => f.at(-1) === '');
    expect(lapsed.length + revoked.length + ordered.length).toBeGreaterThan(0);
    expect(named('insurance_lapsed')).toEqual(lapsed);
    expect(named('authority_revoked')).toEqual(revoked);
    expect(named('out_of_service_order')).toEqual(ordered);
  });
});
