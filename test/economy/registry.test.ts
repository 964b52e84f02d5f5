// The reviewed registry (data/economy/registry.json) against its schema and the contract: enough real series
// in every category, well-formed unique ids, upstream identifiers of the right kind, and every identifier the
// recorded upstream responses verify (shared/data/economy/README.md, section E) present with the same ids.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSeriesId } from '../../contract/economy/ids.ts';
import { schemas } from '../../contract/core/schemas.ts';
import {
  loadRegistry,
  parseRegistry,
  toCategories,
  toSeriesDetail,
  toSeriesRecord,
} from '../../pipeline/economy/registry.ts';
import { CATEGORIES, type RegistryEntry } from '../../contract/economy/types.ts';
import { SHARED_DATA } from '../helpers/server.ts';

const { entries } = loadRegistry();
const ECONOMY_DATA = join(SHARED_DATA, 'economy');
type Reviewed = RegistryEntry & { evidence?: { recorded: string[]; note: string } };

const byVector = new Map(entries.flatMap((e) => e.vectorIds.map((v) => [v, e] as const)));
const byValetName = new Map(entries.flatMap((e) => e.seriesNames.map((n) => [n, e] as const)));

describe('economy registry file', () => {
  it('validates against economy/registry and holds at least 40 series', () => {
    expect(() =>
      schemas().assert(
        'economy/registry',
        JSON.parse(readFileSync(join(import.meta.dirname, '../../data/economy/registry.json'), 'utf8')),
        'registry.json',
      ),
    ).not.toThrow();
    expect(entries.length).toBeGreaterThanOrEqual(40);
  });

  it('uses all 8 categories', () => {
    expect(new Set(entries.map((e) => e.category))).toEqual(new Set(Object.keys(CATEGORIES)));
  });

  it('has unique, well-formed ids', () => {
    const ids = entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(isSeriesId(id), id).toBe(true);
  });

  it('gives StatCan series a table id and vector ids, Valet series their series names', () => {
    for (const e of entries) {
      if (e.source === 'STATCAN') {
        expect(e.tableId, e.id).toMatch(/^\d{2}-\d{2}-\d{4}-\d{2}$/);
        expect(e.vectorIds.length, e.id).toBeGreaterThan(0);
        for (const v of e.vectorIds) expect(Number.isInteger(v) && v > 0, `${e.id} ${v}`).toBe(true);
        expect(e.seriesNames, e.id).toEqual([]);
      } else {
        expect(e.tableId, e.id).toBeNull();
        expect(e.vectorIds, e.id).toEqual([]);
        expect(e.seriesNames.length, e.id).toBeGreaterThan(0);
        expect(e.scalarFactorCode, e.id).toBe(0);
      }
    }
  });

  it('has each upstream identifier once', () => {
    const keys = entries.flatMap((e) => [...e.vectorIds.map(String), ...e.seriesNames]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  // shared/data/economy/README.md, section E: the identifiers marked R (present in a recorded real response).
  it.each([
    { vector: 41690973, table: '18-10-0004-01' },
    { vector: 41692452, table: '18-10-0004-01' },
    { vector: 41692457, table: '18-10-0004-01' },
    { vector: 2062815, table: '14-10-0287-01' },
    { vector: 21581063, table: '14-10-0287-01' },
    { vector: 62305752, table: '36-10-0104-01' },
    { vector: 1230996007, table: '18-10-0266-01' },
    { vector: 52367097, table: '20-10-0008-01' },
    { vector: 74804, table: '23-10-0216-01' },
  ])('holds the verified StatCan vector v$vector of table $table', ({ vector, table }) => {
    const e = byVector.get(vector);
    expect(e, `v${vector}`).toBeDefined();
    expect(e!.source).toBe('STATCAN');
    expect(e!.tableId).toBe(table);
  });

  it.each([
    'FXUSDCAD',
    'FXEURCAD',
    'FXGBPCAD',
    'FXJPYCAD',
    'FXCNYCAD',
    'FXMXNCAD',
    'FXCADUSD',
    'FXAUSDCAD',
    'V39079',
    'V122487',
    'V41552796',
  ])('holds the verified Valet series %s', (name) => {
    const e = byValetName.get(name);
    expect(e, name).toBeDefined();
    expect(e!.source).toBe('BOC');
    expect(e!.seriesNames).toEqual([name]);
  });

  it.each([
    ['CPI_ALL_ITEMS', 0],
    ['EMPLOYMENT_NL_15_64', 3],
    ['RETAIL_TRADE_SALES', 3],
    ['GDP_REAL_QUARTERLY', 6],
  ] as const)('%s carries the scalar factor code of its recorded response (%i)', (id, code) => {
    expect(entries.find((e) => e.id === id)?.scalarFactorCode).toBe(code);
  });

  describe.skipIf(!existsSync(ECONOMY_DATA))('evidence against the recorded responses in shared/data/economy', () => {
    const recorded = (entries as Reviewed[]).filter((e) => (e.evidence?.recorded.length ?? 0) > 0);

    it('backs most series with a recorded response', () => {
      expect(recorded.length).toBeGreaterThanOrEqual(20);
    });

    it.each(recorded.map((e) => [e.id, e] as const))(
      '%s: every recorded file exists and names its identifiers',
      (_id, e) => {
        for (const file of e.evidence!.recorded) {
          const path = join(ECONOMY_DATA, file);
          expect(existsSync(path), path).toBe(true);
          const text = readFileSync(path, 'utf8');
          // WDS writes vector ids bare (41690973) and table downloads with a v prefix; Valet names appear as keys.
          for (const v of e.vectorIds) expect(text.includes(String(v)), `${file} holds ${v}`).toBe(true);
          for (const n of e.seriesNames) expect(text.includes(`"${n}"`), `${file} holds ${n}`).toBe(true);
        }
      },
    );

    it('matches the recorded StatCan product ids and scalar factors', () => {
      for (const e of recorded.filter((x) => x.source === 'STATCAN')) {
        for (const file of e.evidence!.recorded.filter((f) => f.endsWith('.json'))) {
          const doc = JSON.parse(readFileSync(join(ECONOMY_DATA, file), 'utf8')) as unknown;
          const objects = (Array.isArray(doc) ? doc.map((d: { object?: unknown }) => d.object ?? d) : [doc]) as {
            vectorId?: number;
            productId?: number;
            scalarFactorCode?: number;
            vectorDataPoint?: { scalarFactorCode: number }[];
          }[];
          const o = objects.find((x) => x.vectorId !== undefined && e.vectorIds.includes(x.vectorId));
          expect(o, `${file} ${e.id}`).toBeDefined();
          expect(String(o!.productId), `${file} ${e.id}`).toBe(e.tableId!.replaceAll('-', '').slice(0, 8));
          const code = o!.scalarFactorCode ?? o!.vectorDataPoint?.[0]?.scalarFactorCode;
          expect(code, `${file} ${e.id}`).toBe(e.scalarFactorCode);
        }
      }
    });
  });
});

describe('economy/registry schema', () => {
  const validate = schemas().get('economy/registry');
  const good = entries[0]!;
  const valet = entries.find((e) => e.source === 'BOC')!;

  it.each([
    ['{}', {}],
    ['an entry {}', [{}]],
    ['an empty list', []],
    ['a lower-case id', [{ ...good, id: 'cpi_all_items' }]],
    ['an id with a dash', [{ ...good, id: 'CPI-ALL-ITEMS' }]],
    ['an id starting with a digit', [{ ...good, id: '1CPI' }]],
    ['an unknown category', [{ ...good, category: 'weather' }]],
    ['an unknown frequency', [{ ...good, frequency: 'hourly' }]],
    ['a malformed table id', [{ ...good, tableId: '18100004' }]],
    ['a vector id as text', [{ ...good, vectorIds: ['41690973'] }]],
    ['a StatCan series without vectors', [{ ...good, vectorIds: [] }]],
    ['a StatCan series without a table', [{ ...good, tableId: null }]],
    ['a Valet series with a table', [{ ...valet, tableId: '18-10-0004-01' }]],
    ['a Valet series without names', [{ ...valet, seriesNames: [] }]],
    ['an impossible lastVerified', [{ ...good, lastVerified: '2026-13-01' }]],
    ['an extra property', [{ ...good, colour: 'red' }]],
  ])('rejects %s', (_label, doc) => {
    expect(validate(doc)).toBe(false);
  });

  it('accepts a minimal entry without evidence', () => {
    const { evidence: _e, ...bare } = good as Reviewed;
    expect(validate([bare])).toBe(true);
  });

  it('refuses a lastVerified that is no calendar day, naming the series', () => {
    const text = JSON.stringify([{ ...good, lastVerified: '2024-02-30' }]);
    expect(() => parseRegistry(text, 'days.json')).toThrow(
      `days.json: series ${good.id} has lastVerified 2024-02-30, which is not a calendar day`,
    );
  });

  it('reads a registry file as UTF-8 only: a byte order mark is dropped, Latin-1 bytes are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shardline-registry-'));
    try {
      const json = JSON.stringify([{ ...good, title: 'Produit intérieur brut réel' }]);
      const bom = join(dir, 'bom.json');
      writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json, 'utf8')]));
      expect(loadRegistry(bom).entries[0]!.title).toBe('Produit intérieur brut réel');
      const latin1 = join(dir, 'latin1.json');
      writeFileSync(latin1, Buffer.from(json, 'latin1'));
      expect(() => loadRegistry(latin1)).toThrow(`${latin1} is not UTF-8 text: save it as UTF-8`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a registry that repeats an id, naming it', () => {
    const text = JSON.stringify([good, { ...entries[1]!, id: good.id }]);
    expect(() => parseRegistry(text, 'dup.json')).toThrow(`dup.json: series id ${good.id} appears more than once`);
  });

  it('refuses a series served multiplied out whose units still name a scale, and accepts the base units', () => {
    const scaled = entries.find((e) => e.scalarFactorCode !== 0)!;
    expect(scaled.units).not.toMatch(/thousand|million|billion/i);
    const text = JSON.stringify([{ ...scaled, units: 'Dollars, millions' }]);
    expect(() => parseRegistry(text, 'scaled.json')).toThrow(
      `scaled.json: series ${scaled.id} has scalarFactorCode ${scaled.scalarFactorCode}`,
    );
    expect(parseRegistry(JSON.stringify([{ ...scaled, units: 'Dollars' }]), 'ok.json')).toHaveLength(1);
    // A Valet series is served as the Bank publishes it: its scale stays in its units.
    const valetMillions = entries.find((e) => e.source === 'BOC' && /millions/i.test(e.units));
    expect(valetMillions).toBeDefined();
  });

  it('refuses a bad registry with instancePath: message lines', () => {
    expect(() => parseRegistry(JSON.stringify([{ ...good, id: 'bad id' }]), 'bad.json')).toThrow(
      /bad\.json does not match economy\/registry:\n {2}\/0\/id: must match pattern/,
    );
  });
});

describe('registry converters', () => {
  it('turns every entry into a list record and a detail that match their schemas', () => {
    for (const e of entries) {
      const record = toSeriesRecord(e);
      expect(Object.keys(record)).toEqual([
        'id',
        'title',
        'source',
        'sourceLabel',
        'tableId',
        'units',
        'frequency',
        'category',
        'description',
      ]);
      expect(() => schemas().assert('economy/series-list', [record], e.id)).not.toThrow();
      const detail = toSeriesDetail(e);
      expect(() => schemas().assert('economy/series-detail', detail, e.id)).not.toThrow();
      expect(detail).toMatchObject(record);
      expect(detail.scalar_factor).toEqual({ code: e.scalarFactorCode, multiplier: 10 ** e.scalarFactorCode });
      expect(detail.upstream).toEqual(
        e.source === 'STATCAN'
          ? { kind: 'statcan-wds', tableId: e.tableId, vectorIds: e.vectorIds }
          : { kind: 'boc-valet', seriesNames: e.seriesNames },
      );
    }
  });

  it('lists the 8 categories in the contract order with counts and the first 3 titles in file order', () => {
    const categories = toCategories(entries);
    expect(categories.map((c) => [c.slug, c.name])).toEqual(Object.entries(CATEGORIES));
    expect(categories.reduce((n, c) => n + c.seriesCount, 0)).toBe(entries.length);
    for (const c of categories) {
      const titles = entries.filter((e) => e.category === c.slug).map((e) => e.title);
      expect(c.seriesCount).toBe(titles.length);
      expect(c.examples).toEqual(titles.slice(0, 3));
    }
    expect(() => schemas().assert('economy/categories', categories, 'categories')).not.toThrow();
  });

  it('counts an empty category as 0 with no examples', () => {
    const categories = toCategories(entries.filter((e) => e.category !== 'trade'));
    expect(categories.find((c) => c.slug === 'trade')).toEqual({
      slug: 'trade',
      name: 'International trade',
      seriesCount: 0,
      examples: [],
    });
  });
});
