// May I hire them? The registry inputs: FMCSA's real Revocation daily file (../shared/data, never copied here)
// read as it is and joined with a census of our own, a file cut short, and the fixture's L&I files through the
// API: docket search, operating status, authority, insurance and orders.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../pipeline/core/csv.ts';
import { normalizeRevocation, REVOCATION_COLUMNS } from '../../pipeline/carriers/registry-inputs.ts';
import type { RevocationRow } from '../../pipeline/carriers/registry-types.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { loadBuild } from '../../server/core/build.ts';
import { RecordStore } from '../../server/core/record-store.ts';
import { PROFILES } from '../../contract/carriers/layout.ts';
import type { Profile } from '../../contract/carriers/profile.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { type CensusFixture, writeCensus } from '../fixtures/carriers.ts';
import { type buildCarriersFixture, type Json, readOnlyCarriersFixture, serveCarriers } from '../helpers/carriers.ts';
import { SHARED_DATA, tempDir } from '../helpers/server.ts';

const REVOCATIONS = join(SHARED_DATA, 'carriers', 'revocations', 'revocation_2024_08_06.txt');
const present = existsSync(REVOCATIONS);
if (!present) console.warn('skipped: ../shared/data not found (L&I revocation file)');
const DAY = '2024-08-06';

describe.skipIf(!present)('the real L&I Revocation daily file of 2024-08-06', () => {
  const rows: RevocationRow[] = [];
  const issues: string[] = [];
  let dropped = 0;
  let report: Awaited<ReturnType<typeof readCsv>>;
  beforeAll(async () => {
    report = await readCsv(REVOCATIONS, REVOCATION_COLUMNS, (raw, record) => {
      const out = normalizeRevocation(raw, 'revocation.txt', record, DAY);
      issues.push(...out.issues.map((i) => i.message));
      if (out.row) rows.push(out.row);
      else dropped++;
    });
  });

  it('reads every row of its header form: 2,244, quoted, none malformed', () => {
    expect(report).toMatchObject({ rows: 2244, malformed: 0 });
    expect(rows).toHaveLength(2244);
    expect(dropped).toBe(0);
  });

  it('holds the README facts: zero-padded DOT numbers, MM/DD/YYYY dates, 1,916 involuntary and 328 voluntary', () => {
    expect(rows[0]).toEqual({
      docket: { prefix: 'MC', number: 368053 },
      dot: 830331,
      kind: 'common',
      serve_date: '2024-06-26',
      type: 'INVOLUNTARY REVOCATION',
      effective_date: '2024-07-26',
    });
    expect(rows.filter((r) => r.type === 'INVOLUNTARY REVOCATION')).toHaveLength(1916);
    expect(rows.filter((r) => r.type === 'VOLUNTARY REVOCATION')).toHaveLength(328);
    expect(rows.filter((r) => r.serve_date === null)).toHaveLength(250);
    expect(rows.filter((r) => r.docket.prefix === 'FF')).toHaveLength(3);
    // Eight rows name no carrier (00000000 or empty): kept by the reader, counted by the build.
    expect(rows.filter((r) => r.dot === null)).toHaveLength(8);
    // One row has no authority type: read, with the type empty and an issue, never guessed.
    expect(rows.filter((r) => r.kind === null)).toHaveLength(1);
    expect(issues).toEqual([]);
  });

  describe('joined with a census of our own', () => {
    let root: Awaited<ReturnType<typeof tempDir>>;
    let profiles: RecordStore;
    let summary: Awaited<ReturnType<typeof buildCarriers>>;
    // Invented carriers under two numbers the file names: 830331 (MC368053, involuntary, effective 2024-07-26)
    // and 2973837 (FF001724: a voluntary row without dates, and an involuntary one of 2022).
    const CENSUS: CensusFixture[] = [
      [830331, 'REVOKED EXAMPLE LLC', '', 'A', 'N', 'N', 'OMAHA', 'NE', '68102', '', '', '4', '4', '0', '0'],
      [2973837, 'FORWARDER EXAMPLE INC', '', 'A', 'N', 'N', 'MIAMI', 'FL', '33101', '', '', '2', '2', '0', '0'],
      [1234567, 'UNTOUCHED CARTAGE', '', 'A', 'N', 'N', 'TULSA', 'OK', '74103', '', '', '1', '1', '0', '0'],
    ];
    beforeAll(async () => {
      root = await tempDir('carriers-revocations');
      const input = join(root.path, 'input');
      await writeCensus(input, CENSUS);
      await mkdir(join(input, 'li'), { recursive: true });
      await copyFile(REVOCATIONS, join(input, 'li', 'revocation_2024_08_06.txt'));
      summary = await buildCarriers({ input, outDir: join(root.path, 'out'), asOf: DAY });
      profiles = RecordStore.open(loadBuild(join(root.path, 'out', 'carriers'), 'carriers'), PROFILES);
    });
    afterAll(async () => {
      profiles?.close();
      await root?.remove();
    });
    const profile = (dot: number) => JSON.parse(profiles.get(dot)!.toString('utf8')) as Profile;

    it('counts the revocations of carriers not in the census, and those naming none, in the file’s account', () => {
      const account = summary.inputs.find((a) => a.kind === 'revocation')!;
      // MC368053 was revoked six times since 2000 (830331), FF001724 twice (2973837): 8 rows used.
      expect(account).toMatchObject({ rows: 2244, used: 8 });
      expect(account.dropped).toEqual({ unknown_carrier: 2228, no_carrier_number: 8 });
    });

    it('refuses a for-hire interstate carrier whose only authority was revoked, citing the latest of six revocations', () => {
      const p = profile(830331);
      schemas().assert('carriers/profile', p, 'profile');
      expect(p.authority).toEqual([
        {
          docket: 'MC368053',
          kind: 'common',
          status: 'revoked',
          effective_date: '2024-07-26',
          revocation: { type: 'INVOLUNTARY REVOCATION', serve_date: '2024-06-26', effective_date: '2024-07-26' },
          history: [],
        },
      ]);
      expect(p.operating_status.allowed_to_operate).toBe(false);
      expect(p.operating_status.reasons[0]).toEqual({
        code: 'authority_revoked',
        detail: 'MC368053 common authority revoked 2024-07-26',
      });
      expect(p.dockets).toEqual(['MC368053']);
      expect(p.data_gaps).toEqual(['inspections', 'violations', 'crashes', 'insurance', 'out_of_service_orders']);
    });

    it('keeps the latest revocation of a docket with two, and reads FF dockets', () => {
      const p = profile(2973837);
      expect(p.authority).toMatchObject([
        {
          docket: 'FF001724',
          kind: 'contract',
          status: 'revoked',
          effective_date: '2022-05-11',
          revocation: { type: 'INVOLUNTARY REVOCATION', serve_date: '2022-04-05', effective_date: '2022-05-11' },
        },
      ]);
    });

    it('leaves a carrier the file does not name alone: no authority on record, nothing refused', () => {
      const p = profile(1234567);
      expect(p.authority).toEqual([]);
      expect(p.dockets).toEqual([]);
      // For hire in interstate commerce, and no authority: the file only lists revocations, so that is what it says.
      expect(p.operating_status.reasons.map((r) => r.code)).toEqual([
        'no_active_authority',
        'not_checked',
        'not_checked',
      ]);
    });
  });

  it('stops the build when the file is cut short, and publishes nothing', async () => {
    const root = await tempDir('carriers-revocations-cut');
    try {
      const input = join(root.path, 'input');
      await writeCensus(input, [
        [830331, 'REVOKED EXAMPLE LLC', '', 'A', 'N', 'N', 'OMAHA', 'NE', '68102', '', '', '4', '4', '0', '0'],
      ]);
      await mkdir(join(input, 'li'), { recursive: true });
      const text = await readFile(REVOCATIONS, 'utf8');
      // Cut in the middle of a record, as a download that stopped.
      await writeFile(join(input, 'li', 'revocation_2024_08_06.txt'), text.slice(0, Math.floor(text.length / 2) + 7));
      const out = join(root.path, 'out');
      await expect(buildCarriers({ input, outDir: out, asOf: DAY })).rejects.toThrow(/looks truncated/);
      expect(existsSync(join(out, 'carriers'))).toBe(false);
    } finally {
      await root.remove();
    }
  });
});

describe('the fixture’s registry through the API', () => {
  let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
  let srv: Awaited<ReturnType<typeof serveCarriers>>;
  let key = '';
  beforeAll(async () => {
    built = await readOnlyCarriersFixture();
    srv = await serveCarriers(built, {});
    key = (await srv.accounts().createKey('premium', 'registry', new Date())).key;
  });
  afterAll(async () => {
    await srv.close();
    await built.root.remove();
  });
  const search = async (q: string) =>
    (await (await fetch(`${srv.base}/api/search?q=${encodeURIComponent(q)}`)).json()) as Json;
  const profile = async (id: number) =>
    (await (
      await fetch(`${srv.base}/api/carrier/${id}`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as Json;

  it.each(['MC 444444', 'MC-444444', 'mc444444', 'MC#444444', 'MC 0444444'])(
    '%j looks the docket up: its current holder first, then the carrier that held it before',
    async (q) => {
      const r = await search(q);
      schemas().assert('carriers/search', r, 'search');
      expect(r.total).toBe(2);
      expect(r.results.map((x: Json) => [x.carrier_id, x.dockets, x.allowed_to_operate])).toEqual([
        [1000007, ['MC444444'], true],
        [1000006, [], true],
      ]);
    },
  );

  it('finds nothing for a docket no carrier of the census holds, and pages and filters by state', async () => {
    expect((await search('MC 333333')).total).toBe(0);
    expect((await search('FF001724')).total).toBe(0);
    expect((await search('MC 444444')).results).toHaveLength(2);
    const ok = await fetch(`${srv.base}/api/search?q=MC444444&state=OK&limit=1`);
    expect(((await ok.json()) as Json).results.map((x: Json) => x.carrier_id)).toEqual([1000007]);
  });

  it('says why Beta may not operate: its authority was revoked and its insurance is not on file', async () => {
    const p = await profile(1000002);
    expect(p.operating_status).toEqual({
      allowed_to_operate: false,
      reasons: [
        { code: 'authority_revoked', detail: 'MC222222 common authority revoked 2026-07-26' },
        { code: 'insurance_not_on_file', detail: 'the insurance the carrier must file is not all on file' },
      ],
    });
    expect(p.insurance).toEqual({
      required: { bipd: 750_000, cargo: false, bond: false },
      minimum_on_file: false,
      filings: [],
    });
  });

  it('shows Alpha’s active filing over the replaced one, and Gamma’s order in effect', async () => {
    const alpha = await profile(1000001);
    expect(alpha.operating_status).toEqual({ allowed_to_operate: true, reasons: [] });
    expect(alpha.insurance.minimum_on_file).toBe(true);
    expect(alpha.insurance.filings.map((f: Json) => [f.policy_number, f.type, f.status, f.coverage_to])).toEqual([
      ['GP-100', 'bipd', 'active', 750_000],
      ['OLD-1', 'bipd', 'cancelled', 750_000],
    ]);
    const gamma = await profile(1000003);
    expect(gamma.out_of_service_orders).toEqual([
      { date: '2026-09-01', reason: 'Unsatisfactory = Unfit', status: 'active', rescinded_date: null },
    ]);
    expect(gamma.operating_status.allowed_to_operate).toBe(false);
    // Delta's order was rescinded: listed, and no reason to refuse; its $1.5 M falls short of $5 M.
    const delta = await profile(1000005);
    expect(delta.out_of_service_orders[0]).toMatchObject({ status: 'rescinded', rescinded_date: '2025-02-01' });
    expect(delta.operating_status.reasons.map((r: Json) => r.code)).toEqual(['insurance_not_on_file']);
  });
});
