// The account store rows of the bench: which lookup they measure, when they run, and how a run without
// PostgreSQL says it skipped them.
import { describe, expect, it } from 'vitest';
import { carriersStoreLookup } from '../../bench/carriers.ts';
import type { Scenario } from '../../bench/scenario.ts';
import { BENCH_SERVICES } from '../../bench/services.ts';
import { toSettings } from '../../bench/settings.ts';
import { formatStores } from '../../bench/stores.ts';

const scenario = (name: string, paths: string[]): Scenario => ({ name, description: name, paths, target: {} });

describe('the account store comparison', () => {
  it("measures the carriers profile lookup's ids; no other service keeps accounts", () => {
    const lookup = carriersStoreLookup([
      scenario('search', ['/api/search?q=a']),
      scenario('carrier/:id', ['/api/carrier/1', '/api/carrier/2']),
    ]);
    expect(lookup).toEqual({
      paths: ['/api/carrier/1', '/api/carrier/2'],
      description: 'GET /api/carrier/{id}, 2 random ids',
    });
    expect(carriersStoreLookup([scenario('search', [])])).toBeUndefined();
    expect(BENCH_SERVICES.carriers!.storeLookup).toBe(carriersStoreLookup);
    expect(BENCH_SERVICES.facilities!.storeLookup).toBeUndefined();
    expect(BENCH_SERVICES.economy!.storeLookup).toBeUndefined();
  });

  it('runs by default and alone with --only stores, not with --only lookups', () => {
    const all = toSettings(['--quick'])!;
    const stores = toSettings(['--quick', '--only', 'stores'])!;
    const lookups = toSettings(['--quick', '--only', 'lookups'])!;
    const lookup = { ...scenario('carrier/:id', ['/api/carrier/1']), lookup: true };
    expect([all.stores, stores.stores, lookups.stores]).toEqual([true, true, false]);
    expect([all.keep(lookup), stores.keep(lookup), lookups.keep(lookup)]).toEqual([true, false, true]);
    expect(() => toSettings(['--only', 'store'])).toThrow(
      /--only takes lookups, stores, long-params, statics or changes/,
    );
  });

  it('says why it was skipped', () => {
    expect(
      formatStores('carriers', { skipped: 'skipped: PostgreSQL not installed (apt-get install -y postgresql)' }),
    ).toBe('account store, carriers: skipped: PostgreSQL not installed (apt-get install -y postgresql)');
  });
});
