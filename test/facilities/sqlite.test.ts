// api/v1/facilities.sqlite, the whole registry as one SQLite database: its tables made from records of typed
// rows, the file's header (fixed page size, rollback journal, no free page), the same bytes from two builds
// of the same inputs at different times, a demo build's tables counted against its spine and report, the file
// over HTTP on 127.0.0.1 (type, ETag, 304, HEAD, .gz), and SQL over the real registry held against its records.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDocumentFile } from '../../contract/core/layout.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';
import { toDelta, type FacilityRecord, type Flags } from '../../contract/facilities/record.ts';
import type { OpenApiDocument } from '../../pipeline/core/openapi.ts';
import { writeFacilitiesDemo } from '../../pipeline/demo/facilities/index.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { toBaseRecord, type RecordInput } from '../../pipeline/facilities/records.ts';
import { toDeltaParts } from '../../pipeline/facilities/delta-parts.ts';
import {
  SQLITE_PAGE_SIZE,
  SQLITE_PATH,
  SQLITE_TABLES,
  toFacilitiesSqlite,
  type SqliteMeta,
} from '../../pipeline/facilities/sqlite.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { conformingFetch, OpenApiChecker } from '../http-contract/openapi-check.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { SHARED_DATA, startService, tempDir, type Running } from '../helpers/server.ts';
import { fed, on } from './rows.ts';

// biome-ignore lint/suspicious/noExplicitAny: documents read from the tree are untyped JSON, read field by field
type Json = Record<string, any>;
type Row = Record<string, unknown>;

const component = (ontario: string[], federal: string[]) => ({ ontario, federal, evidence: [] });
const read = (dir: string, rel: string) => JSON.parse(readFileSync(join(dir, rel), 'utf8')) as Json;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const NO_FLAGS: Flags = { methane: false, anomaly: false, reasons: [] };

function toRecord(input: RecordInput, flags = NO_FLAGS) {
  const base = toBaseRecord(input);
  const delta = toDelta(base.totals);
  const delta_parts = toDeltaParts({ ontario: input.ontario, federal: input.federal, delta });
  return { ...base, delta, delta_parts, buildings: null, flags } satisfies FacilityRecord;
}

/** The tables' row counts the spine's records imply, worked out from their JSON. */
function countsOf(records: readonly Json[]): Record<(typeof SQLITE_TABLES)[number], number> {
  const sum = (f: (r: Json) => number) => records.reduce((n, r) => n + f(r), 0);
  const programs = ['federal', 'ontario'];
  return {
    facilities: records.length,
    names: sum((r) => r.names.federal.length + r.names.ontario.length),
    ids: sum((r) => r.source_ids.federal.length + r.source_ids.ontario.length),
    totals: sum((r) => r.series.reduce((n: number, p: Json) => n + programs.filter((g) => p[g] !== null).length, 0)),
    gases: sum((r) =>
      programs.reduce(
        (n, program) =>
          n +
          r.by_gas[program].reduce(
            (m: number, g: Json) => m + ['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6'].filter((k) => g[k] !== null).length,
            0,
          ),
        0,
      ),
    ),
    flag_reasons: sum((r) => r.flags.reasons.length),
  };
}

const countTables = (db: Database.Database) =>
  Object.fromEntries(
    SQLITE_TABLES.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  );

describe('toFacilitiesSqlite', () => {
  const steel = toRecord(
    {
      spineId: 'ONF-000001',
      component: component(['2001'], ['G20001', 'G20009']),
      ontario: [
        on('2001', 2023, 'Maple Leaf Steel', 'HAMILTON', { naics: '331110', co2: 950000, ch4: 2000, total: 953000 }),
        on('2001', 2024, 'Maple Leaf Steel Inc.', 'Hamilton', { co2: 940000, ch4: 2000, n2o: 1000, total: 943000 }),
      ],
      federal: [
        fed('G20001', 2024, 'Maple Leaf Steel', 'Hamilton', {
          coordinates: { latitude: 43.2557, longitude: -79.8711 },
          npri_id: '1234',
          business_number: '123456789RC0001',
          company: 'Maple Leaf Steel Ltd.',
          co2: 940100,
          ch4: 2100,
          sf6: 0,
          total: 943500,
        }),
        fed('G20009', 2025, 'Maple Leaf Annex', 'Hamilton', { source: 'indicator', total: 951000 }),
      ],
      year: 2024,
    },
    { methane: true, anomaly: true, reasons: ['first rule, with its figures', 'second rule'] },
  );
  const quiet = toRecord({
    spineId: 'ONF-000002',
    component: component(['2002'], []),
    ontario: [on('2002', 2024, "Smith's Greenhouse", null, { total: 12020, biomass: 20 })],
    federal: [],
    year: 2024,
  });
  const meta: SqliteMeta = {
    data_version: '0123456789abcdef',
    demo: true,
    year: 2024,
    sources: [
      {
        file: 'on.csv',
        kind: 'ontario_ghg',
        rows: 3,
        bytes: 100,
        sha256: 'a'.repeat(64),
        encoding: 'utf-8',
        url: 'https://data.ontario.ca/',
        title: 'Registry',
        publisher: 'Ontario',
        licence: {
          name: 'Open Government Licence – Ontario',
          url: 'https://www.ontario.ca/page/open-government-licence-ontario',
        },
        attribution: 'Contains information licensed under the Open Government Licence – Ontario.',
      },
    ],
  };
  const built = toFacilitiesSqlite([steel, quiet], meta);
  const db = new Database(built.bytes);
  afterAll(() => db.close());
  const all = (sql: string) => db.prepare(sql).all() as Row[];

  it('writes one facilities row per record: place, identifiers, comparison-year figures, flags as 0/1', () => {
    expect(all('SELECT * FROM facilities ORDER BY spine_id')).toEqual([
      {
        spine_id: 'ONF-000001',
        tier: 'anchored',
        program: 'both',
        name: 'Maple Leaf Steel Inc.',
        city: 'Hamilton',
        naics: '331110',
        latitude: 43.2557,
        longitude: -79.8711,
        coordinates_source: 'federal',
        npri_id: '1234',
        business_number: '123456789RC0001',
        company: 'Maple Leaf Steel Ltd.',
        year: 2024,
        ontario_total: 943000,
        federal_total: 943500,
        emissions: 943500,
        delta_tonnes: -500,
        delta_pct: -0.05,
        // Ontario reports N2O 1,000 in 2024, the federal row none: +1,000; CH4 has no federal tonnage to price.
        delta_biomass_co2: 0,
        delta_one_program_gases: 1000,
        delta_global_warming_potentials: 0,
        delta_unexplained: -1500,
        methane: 1,
        anomaly: 1,
      },
      {
        spine_id: 'ONF-000002',
        tier: 'unmatched',
        program: 'ontario_only',
        name: "Smith's Greenhouse",
        city: null,
        naics: null,
        latitude: null,
        longitude: null,
        coordinates_source: null,
        npri_id: null,
        business_number: null,
        company: null,
        year: 2024,
        ontario_total: 12000,
        federal_total: null,
        emissions: 12000,
        delta_tonnes: null,
        delta_pct: null,
        delta_biomass_co2: null,
        delta_one_program_gases: null,
        delta_global_warming_potentials: null,
        delta_unexplained: null,
        methane: 0,
        anomaly: 0,
      },
    ]);
  });

  it('lists names newest first, each source id once, and the flag reasons in order', () => {
    expect(all('SELECT * FROM names ORDER BY spine_id, program, rank')).toEqual([
      { spine_id: 'ONF-000001', program: 'federal', name: 'Maple Leaf Annex', rank: 1 },
      { spine_id: 'ONF-000001', program: 'federal', name: 'Maple Leaf Steel', rank: 2 },
      { spine_id: 'ONF-000001', program: 'ontario', name: 'Maple Leaf Steel Inc.', rank: 1 },
      { spine_id: 'ONF-000001', program: 'ontario', name: 'Maple Leaf Steel', rank: 2 },
      { spine_id: 'ONF-000002', program: 'ontario', name: "Smith's Greenhouse", rank: 1 },
    ]);
    expect(all('SELECT * FROM ids ORDER BY program, source_id')).toEqual([
      { spine_id: 'ONF-000001', program: 'federal', source_id: 'G20001' },
      { spine_id: 'ONF-000001', program: 'federal', source_id: 'G20009' },
      { spine_id: 'ONF-000001', program: 'ontario', source_id: '2001' },
      { spine_id: 'ONF-000002', program: 'ontario', source_id: '2002' },
    ]);
    expect(all('SELECT * FROM flag_reasons')).toEqual([
      { spine_id: 'ONF-000001', position: 1, reason: 'first rule, with its figures' },
      { spine_id: 'ONF-000001', position: 2, reason: 'second rule' },
    ]);
  });

  it('holds each series figure in totals and each gas figure in gases, an empty one in neither', () => {
    expect(all('SELECT spine_id, year, program, tonnes_co2e FROM totals ORDER BY spine_id, year, program')).toEqual([
      { spine_id: 'ONF-000001', year: 2023, program: 'ontario', tonnes_co2e: 953000 },
      { spine_id: 'ONF-000001', year: 2024, program: 'federal', tonnes_co2e: 943500 },
      { spine_id: 'ONF-000001', year: 2024, program: 'ontario', tonnes_co2e: 943000 },
      { spine_id: 'ONF-000001', year: 2025, program: 'federal', tonnes_co2e: 951000 },
      { spine_id: 'ONF-000002', year: 2024, program: 'ontario', tonnes_co2e: 12000 },
    ]);
    expect(
      all('SELECT year, program, gas, tonnes_co2e FROM gases ORDER BY year, program, gas').map((r) => Object.values(r)),
    ).toEqual([
      [2023, 'ontario', 'ch4', 2000],
      [2023, 'ontario', 'co2', 950000],
      [2024, 'federal', 'ch4', 2100],
      [2024, 'federal', 'co2', 940100],
      [2024, 'federal', 'sf6', 0],
      [2024, 'ontario', 'ch4', 2000],
      [2024, 'ontario', 'co2', 940000],
      [2024, 'ontario', 'n2o', 1000],
    ]);
    expect(built.rows).toEqual(countTables(db));
    expect(built.rows).toEqual(countsOf([steel, quiet]));
  });

  it('says in meta which data it holds and whose it is, and nothing of when it was built', () => {
    const rows = Object.fromEntries(all('SELECT key, value FROM meta').map((r) => [r.key, r.value]));
    expect(rows).toEqual({
      comparison_year: '2024',
      data_version: '0123456789abcdef',
      demo: 'true',
      format: '1',
      service: 'facilities',
      sources: JSON.stringify(meta.sources),
    });
  });

  it('is a sound file: page size fixed, rollback journal, no free page, keys and checks hold', () => {
    const b = built.bytes;
    expect(b.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    // https://www.sqlite.org/fileformat2.html §1.3: page size at 16, write and read versions at 18 and 19
    // (1 = rollback journal, 2 = WAL), the number of free pages at 36.
    expect(b.readUInt16BE(16)).toBe(SQLITE_PAGE_SIZE);
    expect([b[18], b[19]]).toEqual([1, 1]);
    expect(b.readUInt32BE(36)).toBe(0);
    expect(b.length % SQLITE_PAGE_SIZE).toBe(0);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(() => db.prepare("INSERT INTO gases VALUES ('ONF-000002', 2024, 'ontario', 'nf3', 1)").run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(() => db.prepare("INSERT INTO totals VALUES ('ONF-000001', 2024, 'provincial', 1)").run()).toThrow(
      /CHECK constraint failed/,
    );
  });

  it('gives the same bytes for the same records, in whatever order they come', () => {
    expect(toFacilitiesSqlite([steel, quiet], meta).bytes.equals(built.bytes)).toBe(true);
    expect(toFacilitiesSqlite([quiet, steel], meta).bytes.equals(built.bytes)).toBe(true);
    expect(toFacilitiesSqlite([steel, quiet], { ...meta, demo: false }).bytes.equals(built.bytes)).toBe(false);
  });
});

describe('facilities.sqlite of a demo build', () => {
  let input: Awaited<ReturnType<typeof tempDir>>;
  let out: Awaited<ReturnType<typeof tempDir>>;
  let dirs: [string, string];
  let db: Database.Database;

  beforeAll(async () => {
    input = await tempDir('sqlite-demo-input');
    out = await tempDir('sqlite-demo');
    await writeFacilitiesDemo(input.path);
    // Two builds of the same inputs a year apart, labelled demo, the second on a clock that moves a millisecond
    // a reading.
    await buildFacilities({
      input: input.path,
      outDir: join(out.path, 'a'),
      demo: true,
      now: () => new Date('2026-01-01T00:00:00Z'),
    });
    let tick = Date.parse('2027-01-01T00:00:00Z');
    await buildFacilities({ input: input.path, outDir: join(out.path, 'b'), demo: true, now: () => new Date(tick++) });
    dirs = [join(out.path, 'a', 'facilities'), join(out.path, 'b', 'facilities')];
    db = new Database(join(dirs[0], SQLITE_PATH.slice(1)), { readonly: true });
  }, 240_000);
  afterAll(async () => {
    db?.close();
    await input?.remove();
    await out?.remove();
  });

  it('is the same bytes from two builds of the same inputs made at different times, as its checksum says', () => {
    const [a, b] = dirs.map((d) => readFileSync(join(d, SQLITE_PATH.slice(1))));
    expect(sha256(b!)).toBe(sha256(a!));
    const [ma, mb] = dirs.map((d) => read(d, 'manifest.json') as Manifest);
    expect(mb!.built_at).not.toBe(ma!.built_at);
    expect((read(dirs[0], 'checksums.json').files as Record<string, string>)['api/v1/facilities.sqlite']).toBe(
      sha256(a!),
    );
    expect(gunzipSync(readFileSync(join(dirs[0], `${SQLITE_PATH.slice(1)}.gz`))).equals(a!)).toBe(true);
  });

  it("opens in journal_mode=DELETE with the fixed page size, and its meta is the manifest's", () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(db.pragma('page_size', { simple: true })).toBe(SQLITE_PAGE_SIZE);
    const manifest = read(dirs[0], 'manifest.json') as Manifest;
    const meta = Object.fromEntries(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    expect(meta.data_version).toBe(manifest.data_version);
    expect(manifest.demo).toBe(true);
    expect(meta.demo).toBe('true');
    expect(meta.comparison_year).toBe(String(manifest.options?.year));
    expect(JSON.parse(meta.sources!)).toEqual(manifest.sources);
  });

  it('has as many rows in each table as the spine implies, and the report says so with the size and the time', () => {
    const spine = read(dirs[0], 'api/v1/spine.json').facilities as Json[];
    const records = spine.map((f) => read(dirs[0], `api/v1/facility/${f.spine_id}.json`));
    const counts = countTables(db);
    expect(counts).toEqual(countsOf(records));
    expect(counts.facilities).toBeGreaterThan(100);
    const [a, b] = dirs.map((d) => read(d, 'report.json').downloads.sqlite as Json);
    expect(a).toEqual({ bytes: readFileSync(join(dirs[0], SQLITE_PATH.slice(1))).length, build_ms: 0, rows: counts });
    // Timed on the build's clock: the pinned one reads 0, the moving one the readings between start and end.
    expect(b!.build_ms).toBeGreaterThan(0);
    expect({ ...b, build_ms: 0 }).toEqual(a);
  });

  it("answers SQL as the records do: each facility's federal 2024 total and its gases", () => {
    const spine = read(dirs[0], 'api/v1/spine.json').facilities as Json[];
    const byId = new Map(
      (
        db
          .prepare(
            `SELECT f.spine_id, t.tonnes_co2e AS total, (SELECT sum(g.tonnes_co2e) FROM gases g
               WHERE g.spine_id = f.spine_id AND g.year = 2024 AND g.program = 'federal') AS gases
             FROM facilities f JOIN totals t ON t.spine_id = f.spine_id AND t.year = 2024 AND t.program = 'federal'`,
          )
          .all() as { spine_id: string; total: number; gases: number | null }[]
      ).map((r) => [r.spine_id, r]),
    );
    let compared = 0;
    for (const { spine_id } of spine) {
      const record = read(dirs[0], `api/v1/facility/${spine_id}.json`);
      const total = (record.series as Json[]).find((p) => p.year === 2024)?.federal ?? null;
      const split = (record.by_gas.federal as Json[]).find((g) => g.year === 2024);
      expect(byId.get(spine_id)?.total ?? null, spine_id).toBe(total);
      if (total === null) continue;
      const gases = split ? ['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6'].reduce((n, k) => n + (split[k] ?? 0), 0) : null;
      if (gases === null) expect(byId.get(spine_id)!.gases).toBeNull();
      else expect(byId.get(spine_id)!.gases).toBeCloseTo(gases, 6);
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
  });
});

describe('facilities.sqlite over HTTP', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Running<unknown>;
  let checker: OpenApiChecker | undefined;
  let scratch: Awaited<ReturnType<typeof tempDir>>;
  const fetch = conformingFetch(() => checker, OPENAPI_PATH);
  const get = (headers: Record<string, string> = {}, method = 'GET') =>
    fetch(server.base + SQLITE_PATH, { headers, method });

  beforeAll(async () => {
    fx = await buildFixture();
    scratch = await tempDir('sqlite-download');
    server = (await startService(facilities, fx.outDir)) as Running<unknown>;
    checker = new OpenApiChecker(
      JSON.parse(readFileSync(join(fx.buildDir, toDocumentFile(OPENAPI_PATH)), 'utf8')) as OpenApiDocument,
    );
  });
  afterAll(async () => {
    await server?.close();
    await fx?.root.remove();
    await scratch?.remove();
  });

  it('serves the database as application/vnd.sqlite3 with the ETag of its checksum, 304, HEAD and gzip', async () => {
    const file = readFileSync(join(fx.buildDir, SQLITE_PATH.slice(1)));
    const sums = read(fx.buildDir, 'checksums.json').files as Record<string, string>;
    const res = await get({ 'Accept-Encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('x-data-version')).toBe(read(fx.buildDir, 'manifest.json').data_version);
    const etag = res.headers.get('etag')!;
    expect(etag).toBe(`"${sums['api/v1/facilities.sqlite']!.slice(0, 32)}"`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(file)).toBe(true);
    const again = await get({ 'If-None-Match': etag, 'Accept-Encoding': 'identity' });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await get({ 'Accept-Encoding': 'identity' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(head.headers.get('content-length')).toBe(String(file.length));
    const gz = await get({ 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).toBe(`${etag.slice(0, -1)}-gz"`);
    expect(Number(gz.headers.get('content-length'))).toBeLessThan(file.length / 2);
    expect(Buffer.from(await gz.arrayBuffer()).equals(file)).toBe(true);
    // What a client downloaded opens as the registry.
    const downloaded = new Database(body, { readonly: true });
    try {
      const spine = read(fx.buildDir, 'api/v1/spine.json');
      expect(countTables(downloaded).facilities).toBe(spine.count);
    } finally {
      downloaded.close();
    }
  });
});

const INPUT = join(SHARED_DATA, 'facilities');
const present = existsSync(INPUT);
if (!present) console.warn('skipped: ../shared/data not found (facilities.sqlite real-data test)');

describe.skipIf(!present)('facilities.sqlite of the real registry files', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  let db: Database.Database;
  let records: Json[];

  beforeAll(async () => {
    root = await tempDir('sqlite-real');
    await buildFacilities({ input: INPUT, outDir: root.path });
    dir = join(root.path, 'facilities');
    db = new Database(join(dir, SQLITE_PATH.slice(1)), { readonly: true });
    const spine = read(dir, 'api/v1/spine.json').facilities as Json[];
    records = spine.map((f) => read(dir, `api/v1/facility/${f.spine_id}.json`));
  }, 120_000);
  afterAll(async () => {
    db?.close();
    await root?.remove();
  });

  it("counts in every table what the spine's records hold, and a source id names its spine id as ids.json does", () => {
    expect(countTables(db)).toEqual(countsOf(records));
    expect(records).toHaveLength(read(dir, 'api/v1/spine.json').count);
    const sources = read(dir, 'ids.json').sources as Record<string, string>;
    const ids = db.prepare('SELECT program, source_id, spine_id FROM ids').all() as Row[];
    expect(ids).toHaveLength(Object.keys(sources).length);
    for (const r of ids) expect(r.spine_id, `${r.program}:${r.source_id}`).toBe(sources[`${r.program}:${r.source_id}`]);
  });

  it("sums each gas per program and year in SQL as the records' by_gas sum it", () => {
    const sums = db
      .prepare('SELECT program, year, gas, sum(tonnes_co2e) AS t, count(*) AS n FROM gases GROUP BY program, year, gas')
      .all() as { program: string; year: number; gas: string; t: number; n: number }[];
    const expected = new Map<string, { t: number; n: number }>();
    for (const r of records)
      for (const program of ['federal', 'ontario'])
        for (const g of r.by_gas[program] as Json[])
          for (const gas of ['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6']) {
            if (g[gas] === null) continue;
            const k = `${program} ${g.year} ${gas}`;
            const e = expected.get(k) ?? { t: 0, n: 0 };
            expected.set(k, { t: e.t + g[gas], n: e.n + 1 });
          }
    expect(sums.map((s) => `${s.program} ${s.year} ${s.gas}`).sort()).toEqual([...expected.keys()].sort());
    for (const s of sums) {
      const e = expected.get(`${s.program} ${s.year} ${s.gas}`)!;
      expect(s.n).toBe(e.n);
      expect(s.t).toBeCloseTo(e.t, 3);
    }
    // Ontario 2010–2020 and the federal excerpt's 2020 and 2023, six gases each.
    expect(sums.length).toBeGreaterThan(60);
  });

  it("answers for Algoma Steel (G10011) the README's figures by SQL", () => {
    const one = (sql: string, ...args: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(...args);
    const algoma = one("SELECT spine_id FROM ids WHERE program = 'federal' AND source_id = 'G10011'");
    expect(one("SELECT spine_id FROM ids WHERE program = 'ontario' AND source_id = '1042'")).toBe(algoma);
    const total = "SELECT tonnes_co2e FROM totals WHERE spine_id = ? AND year = ? AND program = 'federal'";
    // README §4 (2020 and 2023 from the excerpt) and §3.4 (the 2021 indicator table, 4 111.48 kt).
    expect(one(total, algoma, 2020)).toBeCloseTo(3882002.891, 3);
    expect(one(total, algoma, 2021)).toBe(4111480);
    expect(one(total, algoma, 2023)).toBeCloseTo(4292166.216, 3);
    expect(
      one(
        "SELECT tonnes_co2e FROM gases WHERE spine_id = ? AND year = 2020 AND program = 'ontario' AND gas = 'co2'",
        algoma,
      ),
    ).toBe(3858475.994);
    expect(one('SELECT count(*) FROM gases WHERE spine_id = ? AND year = 2021', algoma)).toBe(0);
  });
});
