// Builds from the real upstream samples in ../shared/data/facilities (never copied into this repository)
// and checks the facts their README states, through the API. Skips visibly when ../shared is absent.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { SHARED_DATA, startService, tempDir, type Running } from '../helpers/server.ts';
import { expectCredited, expectOpenApiCredits, readJson } from '../helpers/provenance.ts';
import type { Manifest } from '../../contract/core/manifest.ts';

const INPUT = join(SHARED_DATA, 'facilities');
const present = existsSync(INPUT);
if (!present) console.warn('skipped: ../shared/data not found (facilities real-data test)');

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

describe.skipIf(!present)('facilities on the real registry files (no --year: the newest year both report)', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let server: Running<unknown>;
  const get = async (path: string): Promise<Json> => {
    const res = await fetch(server.base + path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as Json;
  };
  const facilityOf = async (side: 'ontario' | 'federal', id: string): Promise<Json> => {
    const ids = JSON.parse(readFileSync(join(root.path, 'facilities', 'ids.json'), 'utf8')).sources as Record<
      string,
      string
    >;
    return get(`/api/v1/facility/${ids[`${side}:${id}`]}`);
  };

  beforeAll(async () => {
    root = await tempDir('real');
    // No --year: Ontario's file ends in 2020 and the federal ones in 2023, so the comparison year is 2020.
    await buildFacilities({ input: INPUT, outDir: root.path });
    server = (await startService(facilities, root.path)) as Running<unknown>;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await root?.remove();
  });

  it('compares 2020, the newest year both programs report: totals, top emitters and agreement are filled', async () => {
    const stats = await get('/api/v1/stats');
    expect(stats.year).toBe(2020);
    expect(stats.agreement.compared).toBeGreaterThanOrEqual(10);
    expect(stats.top_emitters).toHaveLength(30);
    const report = JSON.parse(readFileSync(join(root.path, 'facilities', 'report.json'), 'utf8')) as Json;
    expect(report.warnings ?? []).toEqual([]);
  });

  it('credits each publisher under its licence: OGL – Ontario for Ontario, OGL – Canada for ECCC', () => {
    const buildDir = join(root.path, 'facilities');
    const manifest = readJson<Manifest>(join(buildDir, 'manifest.json'));
    expect(manifest.demo).toBe(false);
    expect(new Set(manifest.sources.map((s) => s.kind))).toEqual(
      new Set(['ontario_ghg', 'ghgrp_by_gas', 'ghgrp_indicator', 'ewrb', 'boundary']),
    );
    expectCredited(manifest);
    expectOpenApiCredits(buildDir, 'api/v1/openapi.json', manifest);
  });

  it('refuses a --year neither program reports, and builds one that one program reports', async () => {
    const other = await tempDir('real-year');
    try {
      await expect(buildFacilities({ input: INPUT, outDir: other.path, year: 2024 })).rejects.toThrow(
        /--year 2024: neither program reports that year \(Ontario 2010–2020, federal \d{4}–2023\)/,
      );
      const built = await buildFacilities({ input: INPUT, outDir: other.path, year: 2021 });
      expect(built.counts.facilities).toBeGreaterThan(100);
    } finally {
      await other.remove();
    }
  }, 120_000);

  it('keeps the carbon-black plant and the steel works of Hamilton apart, and says which link it refused', async () => {
    // Ontario 1030 (Birla Carbon) was named "Hamilton" in 2010–2015; Ontario 1148 (Stelco) and federal
    // G10275 are named "Hamilton" now. Chained, they made one record of two plants.
    const birla = await facilityOf('ontario', '1030');
    const stelco = await facilityOf('ontario', '1148');
    expect(birla.source_ids).toEqual({ ontario: ['1030'], federal: ['G10133'] });
    expect(stelco.source_ids).toEqual({ ontario: ['1148'], federal: ['G10275'] });
    const report = await get('/report.json');
    expect(report.refused_links).toEqual([
      expect.objectContaining({ ontario_id: '1030', federal_id: 'G10275', name: 'HAMILTON', city: 'HAMILTON' }),
    ]);
  });

  it('loses no row without reporting it', async () => {
    const report = await get('/report.json');
    const rows = Object.fromEntries(report.inputs.map((i: Json) => [i.kind, i]));
    for (const input of report.inputs) {
      const dropped = Object.values(input.dropped as Record<string, number>).reduce((a, n) => a + n, 0);
      expect(input.used + dropped, input.file).toBe(input.rows);
    }
    expect(rows.ontario_ghg).toMatchObject({ rows: 2557, used: 2557, encoding: 'windows-1252' });
    expect(rows.ghgrp_by_gas).toMatchObject({ rows: 16, used: 16 });
    expect(rows.ghgrp_indicator).toMatchObject({ rows: 1732, used: 382, dropped: { outside_ontario: 1350 } });
    expect(rows.ewrb).toMatchObject({ rows: 3491, used: 3491, bom: true });
    expect(report.ignored.map((i: Json) => i.file)).toContain('ewrb_metric_descriptions.csv');
  });

  it('links about 349 of the 409 Ontario ids to federal ids', async () => {
    const stats = await get('/api/v1/stats');
    const stage = (name: string) => stats.funnel.find((s: Json) => s.stage === name).count;
    expect(stage('ontario_facilities')).toBe(409);
    expect(stage('ontario_anchored')).toBeGreaterThanOrEqual(340);
    expect(stage('ontario_anchored')).toBeLessThanOrEqual(360);
    expect(stats.year).toBe(2020);
  });

  it('holds the README checkable facts (2020)', async () => {
    const algoma = await facilityOf('ontario', '1042');
    expect(algoma.source_ids.federal).toContain('G10011');
    expect(algoma.naics).toBe('331110');
    expect(algoma.totals).toEqual({ year: 2020, ontario: 3880106, federal: 3882002.891 });
    expect(algoma.names.ontario).toEqual(expect.arrayContaining(['Algoma Steel Inc', 'Essar Steel Algoma Inc']));

    const atikokan = await facilityOf('ontario', '1104');
    expect(atikokan.source_ids.federal).toContain('G10016');
    // 179458 − 162353.83 biomass CO2 on the federal basis.
    expect(atikokan.totals).toEqual({ year: 2020, ontario: 17104.17, federal: 16939.6 });

    const resolute = await facilityOf('ontario', '1120');
    expect(resolute.source_ids.federal).toContain('G10025');
    expect(resolute.names.ontario).toEqual(
      expect.arrayContaining(['Thunder Bay', 'Resolute Forest Products - Thunder Bay Operations']),
    );
    expect(resolute.totals.federal).toBe(201190.8068);

    const kingston = await facilityOf('federal', 'G10004');
    expect(kingston.source_ids.ontario).toContain('1097');
    expect(kingston.series.find((p: Json) => p.year === 2023).federal).toBe(946.317909);

    // The indicator table (2021, kt with a space thousands separator) merges in by id.
    expect(algoma.series.find((p: Json) => p.year === 2021).federal).toBe(4111480);
    expect((await facilityOf('federal', 'G10031')).series.find((p: Json) => p.year === 2021).federal).toBe(63030);
  });

  it('locates every facility the federal emissions-by-gas file gives coordinates, at those coordinates', async () => {
    // The file is read here, not copied: the ids and coordinates its rows give.
    const text = readFileSync(
      join(INPUT, 'federal', 'PDGES-GHGRP-GHGEmissionsGES-2004-Present_EXCERPT_ON.csv'),
      'utf8',
    );
    const [header, ...rows] = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    const at = (name: string) => header!.indexOf(name);
    const located = new Map(
      rows.map((r) => [r[0]!, { latitude: Number(r[at('Latitude')]), longitude: Number(r[at('Longitude')]) }]),
    );
    expect(located.size).toBe(10);
    for (const [id, coordinates] of located)
      expect((await facilityOf('federal', id)).coordinates, id).toEqual({ ...coordinates, source: 'federal' });
    // By hand: Algoma Steel Inc, Sault Ste. Marie (G10011, Ontario 1042), 46.5217, -84.3637.
    expect((await facilityOf('ontario', '1042')).coordinates).toEqual({
      latitude: 46.5217,
      longitude: -84.3637,
      source: 'federal',
    });
    // The indicator table locates the other federal ids: every facility with a federal id has coordinates,
    // and no Ontario-only one (the registry has none). No row's coordinates were unusable.
    const spine = await get('/api/v1/spine');
    const withFederal = spine.facilities.filter((f: Json) => f.source_ids.federal.length > 0);
    expect(withFederal.length).toBeGreaterThan(370);
    expect(withFederal.filter((f: Json) => f.coordinates === null)).toEqual([]);
    expect(spine.facilities.filter((f: Json) => f.program === 'ontario_only' && f.coordinates)).toEqual([]);
    const report = await get('/report.json');
    expect(report.issues.filter((i: Json) => i.kind === 'invalid_coordinates')).toEqual([]);
    const geojson = await get('/api/v1/spine.geojson');
    expect(geojson.features).toHaveLength(withFederal.length);
  });

  it('gives each facility its NPRI id, business number and reporting company, the newest the federal file prints', async () => {
    // Read by hand from the excerpt: Kingston CoGen (G10004) reported as Northland Power Inc. (890714181) in
    // 2020 and as Kingston CoGen Limited Partnership (140263690) in 2023; NPRI 5765 both years.
    expect((await facilityOf('federal', 'G10004')).identifiers).toEqual({
      npri_id: '5765',
      business_number: '140263690',
      company: 'Kingston CoGen Limited Partnership',
    });
    // The City of Toronto's row writes NPRI id 0: none.
    expect((await facilityOf('federal', 'G10032')).identifiers).toEqual({
      npri_id: null,
      business_number: '867402299',
      company: 'City of Toronto',
    });
    const spine = await get('/api/v1/spine');
    const ontarioOnly = spine.facilities.filter((f: Json) => f.program === 'ontario_only');
    expect(ontarioOnly.length).toBeGreaterThan(0);
    for (const f of ontarioOnly) expect(f.identifiers).toEqual({ npri_id: null, business_number: null, company: null });
  });

  it('gives emissions by gas as the files print them (figures read by hand)', async () => {
    const none = { hfc: null, pfc: null, sf6: null };
    const zeros = { hfc: 0, pfc: 0, sf6: 0 };
    // Algoma Steel Inc (Ontario 1042, G10011). Federal: CO2 (tonnes) and the CO2e columns, AR5; its HFC, PFC and
    // SF6 totals are printed 0. Ontario 2020: CO2 from non-biomass, CH4 and N2O in CO2e (AR4); the
    // fluorinated-gas fields are empty.
    const algoma = await facilityOf('ontario', '1042');
    expect(algoma.by_gas.federal).toEqual([
      { year: 2020, co2: 3858475.994, ch4: 20834.37412, n2o: 2692.52296, ...zeros },
      { year: 2023, co2: 4276836.1, ch4: 11170.432, n2o: 4159.6838, ...zeros },
    ]);
    expect(algoma.by_gas.ontario.find((g: Json) => g.year === 2020)).toEqual({
      year: 2020,
      co2: 3858475.994,
      ch4: 18602.11975,
      n2o: 3027.818272,
      ...none,
    });
    // Kingston CoGen, Bath (Ontario 1097, G10004), 2020: the same CO2 tonnage in both programs.
    const kingston = await facilityOf('federal', 'G10004');
    expect(kingston.by_gas.federal[0]).toEqual({ year: 2020, co2: 319.146, ch4: 2.3324, n2o: 2.21275, ...zeros });
    expect(kingston.by_gas.ontario.at(-1)).toEqual({ year: 2020, co2: 319.146, ch4: 2.0825, n2o: 2.4883, ...none });
    // Atikokan Generating Station (Ontario 1104), 2020: its 162353.83 t of CO2 from biomass is not in co2.
    const atikokan = await facilityOf('ontario', '1104');
    expect(atikokan.by_gas.ontario.at(-1)).toEqual({ year: 2020, co2: 15042.98, ch4: 278.5, n2o: 1782.04, ...none });
    // Thorold Cogen Generating Station (Ontario 1099), 2012: SF6 86.7331 t CO2e, HFCs and PFCs printed 0.
    const thorold = await facilityOf('ontario', '1099');
    expect(thorold.by_gas.ontario.find((g: Json) => g.year === 2012)).toEqual({
      year: 2012,
      co2: 374370.792,
      ch4: 2050.818,
      n2o: 3027.46,
      hfc: 0,
      pfc: 0,
      sf6: 86.7331,
    });
    // Espanola Mill (Ontario 1033), 2010: HFCs 17396 t CO2e.
    expect((await facilityOf('ontario', '1033')).by_gas.ontario[0]).toMatchObject({ year: 2010, hfc: 17396, sf6: 0 });
    // The indicator table (2021) has no gases: no federal 2021 entry, though 2021 has a federal total.
    expect(algoma.series.find((p: Json) => p.year === 2021).federal).toBe(4111480);
    expect(algoma.by_gas.federal.map((g: Json) => g.year)).not.toContain(2021);
  });

  it('writes spine.csv with a row per facility, and search answers the same rows as CSV', async () => {
    const res = await fetch(`${server.base}/api/v1/spine.csv`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = Papa.parse<string[]>(await res.text(), { newline: '\r\n', skipEmptyLines: true });
    expect(rows.errors).toEqual([]);
    const spine = await get('/api/v1/spine');
    expect(rows.data).toHaveLength(spine.count + 1);
    const algoma = (await facilityOf('ontario', '1042')).spine_id;
    const row = rows.data.find((r) => r[0] === algoma);
    // 3880106 (no biomass) − 3882002.891 = −1896.891 t, −0.05 %.
    expect(row).toEqual([
      algoma,
      'Algoma Steel Inc',
      'Sault Ste. Marie',
      'anchored',
      'both',
      '331110',
      '2020',
      '3880106',
      '3882002.891',
      '-1896.89',
      '-0.05',
      '3882002.891',
      // Latitude and longitude of G10011 as the federal files write them (46.5217, -84.3637).
      '46.5217',
      '-84.3637',
    ]);
    const search = await fetch(`${server.base}/api/v1/search?q=algoma%20steel&format=csv`);
    expect((await search.text()).split('\r\n')).toContain(row!.join(','));
    // Names holding a comma are quoted (the registry writes "Canada Bread Company, Ltd." and others).
    expect(rows.data.some((r) => r[1]!.includes(','))).toBe(true);
  });

  it('answers search over the real names', async () => {
    const r = await get('/api/v1/search?q=algoma%20steel');
    expect(r.results.map((x: Json) => x.spine_id)).toContain((await facilityOf('ontario', '1042')).spine_id);
    const accents = await get('/api/v1/search?q=RESOLU');
    expect(accents.total).toBeGreaterThan(0);
  });

  it('facets the real registry as the stats count it, and answers another year from the series', async () => {
    const stats = await get('/api/v1/stats');
    const r = await get('/api/v1/search?facets=tier,program,naics2,city,flags&limit=1');
    const counts = (name: string) =>
      Object.fromEntries(r.facets[name].results.map((v: Json) => [v.value, v.count])) as Record<string, number>;
    expect(counts('tier')).toEqual({ anchored: stats.match.anchored, unmatched: stats.match.unmatched });
    expect(counts('program')).toEqual({
      both: stats.match.both,
      ontario_only: stats.match.ontario_only,
      federal_only: stats.match.federal_only,
    });
    // The registry's manufacturers: NAICS 31, 32 and 33 all read "Manufacturing".
    expect(r.facets.naics2.results.find((v: Json) => v.value === '33').label).toBe('33 Manufacturing');
    const sault = await get('/api/v1/search?city=Sault%20Ste.%20Marie');
    expect(r.facets.city.results.find((v: Json) => v.value.startsWith('Sault')).count).toBe(sault.total);
    // Ontario's file ends in 2020 and the federal ones cover 2020, 2021 (the indicator table) and 2023: 2020 is the
    // one year both report, so it is the only year the parameter takes, and it keeps Algoma's 2020 figures.
    const refused = await fetch(`${server.base}/api/v1/search?year=2021`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).detail).toBe(
      'year 2021 is not a year both programs report; the years are 2020',
    );
    const algoma = await facilityOf('ontario', '1042');
    const in2020 = await get('/api/v1/search?q=algoma%20steel&year=2020');
    expect(in2020.results[0].totals).toEqual({ year: 2020, ontario: 3880106, federal: 3882002.891 });
    expect(in2020.results[0].spine_id).toBe(algoma.spine_id);
    // The federal file gives SF6 for some facilities in 2020: the gas filter finds exactly those.
    const spine = await get('/api/v1/spine');
    const sf6 = spine.facilities.filter((f: Json) =>
      [...f.by_gas.federal, ...f.by_gas.ontario].some((g: Json) => g.year === 2020 && g.sf6 !== null),
    );
    expect((await get('/api/v1/search?gas=sf6&limit=1')).total).toBe(sf6.length);
  });
});
