// The account store's contract, one suite run against both stores: the embedded SQLite file under
// STATE_DIR and PostgreSQL (DATABASE_URL). "Another" store is what another server process is: a second
// connection to the same file, or a second pool on the same database.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPLAIN_KEEP_MS, type AccountStore, type ExplainEntry } from '../../../server/core/store.ts';
import { type Opened, settledEpoch, storeBackends, within } from '../../helpers/account-store.ts';

const NOW = new Date('2026-02-27T00:00:00Z');
const MONTH = '2026-02';

const { sqlite, postgres } = storeBackends('store');

for (const backend of [sqlite, postgres]) {
  describe.skipIf(backend.skip)(`the account store: ${backend.name}`, () => {
    let opened: Opened;
    let store: AccountStore;
    beforeEach(async () => {
      opened = await backend.open();
      store = opened.store;
    });
    afterEach(async () => opened.cleanup());

    describe('keys', () => {
      it('creates, lists and revokes', async () => {
        const a = await store.createKey('free', 'Acme trial', NOW);
        const b = await store.createKey('premium', 'Acme', new Date('2026-02-28T00:00:00Z'));
        expect(a).toEqual({
          id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
          key: expect.stringMatching(/^sl_[A-Za-z0-9_-]{43}$/),
          plan: 'free',
          label: 'Acme trial',
          created_at: '2026-02-27T00:00:00.000Z',
        });
        expect(await store.listKeys()).toEqual([
          { id: a.id, plan: 'free', label: 'Acme trial', created_at: '2026-02-27T00:00:00.000Z', revoked: false },
          { id: b.id, plan: 'premium', label: 'Acme', created_at: '2026-02-28T00:00:00.000Z', revoked: false },
        ]);
        expect(await store.findKey(a.key)).toEqual({ id: a.id, plan: 'free', revoked: false });
        expect(await store.revokeKey(a.id, NOW)).toBe(true);
        expect(await store.revokeKey(a.id, NOW)).toBe(true);
        expect(await store.revokeKey('key_000000000000', NOW)).toBe(false);
        expect(await store.findKey(a.key)).toEqual({ id: a.id, plan: 'free', revoked: true });
        expect((await store.listKeys()).map((k) => k.revoked)).toEqual([true, false]);
        expect((await store.findKey(b.key))?.revoked).toBe(false);
      });

      it('refuses an unknown plan', async () => {
        await expect(store.createKey('gold' as 'free', 'x', NOW)).rejects.toThrow(/plan must be one of free, premium/);
        expect(await store.listKeys()).toEqual([]);
      });

      it('rejects a key that differs from a real one in its last character, or is a prefix of it', async () => {
        const { key } = await store.createKey('free', 'near miss', NOW);
        const last = key.at(-1) === 'A' ? 'B' : 'A';
        expect(await store.findKey(key.slice(0, -1) + last)).toBeUndefined();
        expect(await store.findKey(key.slice(0, -1))).toBeUndefined();
        expect(await store.findKey(`${key}A`)).toBeUndefined();
        expect(await store.findKey('')).toBeUndefined();
        expect(await store.findKey(key)).toBeDefined();
      });

      it('issues a different key and id every time', async () => {
        const made = await Promise.all(Array.from({ length: 20 }, () => store.createKey('free', 'x', NOW)));
        expect(new Set(made.map((k) => k.key)).size).toBe(20);
        expect(new Set(made.map((k) => k.id)).size).toBe(20);
      });

      it('sees a key another store made, and stops accepting one it revoked, within 5 s', async () => {
        const other = opened.another();
        const { id, key } = await store.createKey('premium', 'revoked elsewhere', NOW);
        await other.findKey(key);
        const epoch = await settledEpoch(other);
        // Looked up, and remembered, before the other store revokes it.
        expect(await other.findKey(key)).toEqual({ id, plan: 'premium', revoked: false });
        expect(other.keysEpoch()).toBe(epoch);
        await store.revokeKey(id, NOW);
        const made = await store.createKey('free', 'made elsewhere', NOW);
        await within(5000, 'the revocation was not seen', async () => (await other.findKey(key))?.revoked === true);
        expect(other.keysEpoch()).not.toBe(epoch);
        expect(await other.findKey(made.key)).toEqual({ id: made.id, plan: 'free', revoked: false });
      });

      it('keeps its epoch while no key changes, and moves it on for its own changes', async () => {
        const { key } = await store.createKey('premium', 'steady', NOW);
        // PostgreSQL: the first look-up starts listening for changes; the epoch holds once it does.
        await store.findKey(key);
        const epoch = await settledEpoch(store);
        await store.findKey(key);
        expect(store.keysEpoch()).toBe(epoch);
        await store.consume('key_000000000001', MONTH, 5);
        expect(store.keysEpoch()).toBe(epoch);
        await store.createKey('free', 'new', NOW);
        expect(store.keysEpoch()).not.toBe(epoch);
      });
    });

    describe('consume', () => {
      it('counts up to the limit and no further', async () => {
        expect(await store.consume('key_a', MONTH, 2)).toEqual({ ok: true, used: 1, remaining: 1 });
        expect(await store.consume('key_a', MONTH, 2)).toEqual({ ok: true, used: 2, remaining: 0 });
        expect(await store.consume('key_a', MONTH, 2)).toEqual({ ok: false, used: 2, remaining: 0 });
        expect(await store.usage('key_a', MONTH)).toBe(2);
        expect(await store.usage('key_b', MONTH)).toBe(0);
        expect(await store.consume('key_c', MONTH, 0)).toEqual({ ok: false, used: 0, remaining: 0 });
        expect(await store.usage('key_c', MONTH)).toBe(0);
      });

      it('survives reopening the store', async () => {
        await store.consume('key_a', MONTH, 25);
        await store.consume('key_a', MONTH, 25);
        await store.close();
        const again = opened.reopen();
        expect(await again.usage('key_a', MONTH)).toBe(2);
        expect(await again.consume('key_a', MONTH, 25)).toEqual({ ok: true, used: 3, remaining: 22 });
      });

      it('refunds one unit, never below zero', async () => {
        await store.consume('key_a', MONTH, 1);
        expect((await store.consume('key_a', MONTH, 1)).ok).toBe(false);
        await store.refund('key_a', MONTH);
        expect(await store.usage('key_a', MONTH)).toBe(0);
        await store.refund('key_a', MONTH);
        await store.refund('key_z', MONTH);
        expect(await store.usage('key_a', MONTH)).toBe(0);
        expect((await store.consume('key_a', MONTH, 1)).ok).toBe(true);
      });

      it('starts every month at zero', async () => {
        await store.consume('key_a', '2026-02', 1);
        expect((await store.consume('key_a', '2026-02', 1)).ok).toBe(false);
        expect(await store.consume('key_a', '2026-03', 1)).toEqual({ ok: true, used: 1, remaining: 0 });
        expect(await store.usage('key_a', '2026-02')).toBe(1);
      });

      it('refuses a malformed month or limit', async () => {
        await expect(store.consume('key_a', '2026-2', 1)).rejects.toThrow(/YYYY-MM/);
        await expect(store.consume('key_a', MONTH, 1.5)).rejects.toThrow(/non-negative integer/);
        await expect(store.usage('key_a', '2026-13')).rejects.toThrow(/YYYY-MM/);
      });

      it('gives exactly one success to 60 concurrent consumes, over two stores, with one unit left', async () => {
        const other = opened.another();
        await store.consume('key_race', MONTH, 25);
        for (let i = 0; i < 23; i++) await other.consume('key_race', MONTH, 25);
        const results = await Promise.all(
          Array.from({ length: 60 }, (_, i) => (i % 2 ? store : other).consume('key_race', MONTH, 25)),
        );
        expect(results.filter((r) => r.ok)).toEqual([{ ok: true, used: 25, remaining: 0 }]);
        expect(results.filter((r) => !r.ok).every((r) => r.remaining === 0 && r.used === 25)).toBe(true);
        expect(await store.usage('key_race', MONTH)).toBe(25);
      });

      it('counts every unit of 80 concurrent consumes over two stores, exactly up to the limit', async () => {
        const other = opened.another();
        const results = await Promise.all(
          Array.from({ length: 80 }, (_, i) => (i % 2 ? store : other).consume('key_many', MONTH, 50)),
        );
        const used = results
          .filter((r) => r.ok)
          .map((r) => r.used)
          .sort((a, b) => a - b);
        expect(used).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
        expect(await other.usage('key_many', MONTH)).toBe(50);
      });
    });

    describe('explain cache', () => {
      const entry: ExplainEntry = {
        carrier_id: 42,
        data_version: 'dddddddddddddddd',
        summary: 'first',
        generator: 'template-v1',
        generated_at: NOW.toISOString(),
      };

      it('keeps the first summary stored when two stores race (first writer wins)', async () => {
        const other = opened.another();
        expect(await store.explainGet(42, entry.data_version)).toBeUndefined();
        expect(await store.explainPut(entry)).toEqual({ entry, inserted: true });
        expect(await other.explainPut({ ...entry, summary: 'second', generator: 'llm:m' })).toEqual({
          entry,
          inserted: false,
        });
        expect(await other.explainGet(42, entry.data_version)).toEqual(entry);
        expect(await store.explainGet(42, 'ffffffffffffffff')).toBeUndefined();
        // At once, from both: one row.
        const both = await Promise.all([
          store.explainPut({ ...entry, carrier_id: 7, summary: 'one' }),
          other.explainPut({ ...entry, carrier_id: 7, summary: 'two' }),
        ]);
        expect(both.filter((r) => r.inserted)).toHaveLength(1);
        expect(both[0]!.entry).toEqual(both[1]!.entry);
      });

      it("a new summary removes every carrier's summaries of other builds made over a day before it", async () => {
        const keep = EXPLAIN_KEEP_MS;
        const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
        const old = { ...entry, data_version: 'aaaaaaaaaaaaaaaa', summary: 'old', generated_at: at(-2 * keep) };
        const other = { ...old, carrier_id: 43, summary: 'another carrier, the same old build' };
        const olderStill = { ...old, carrier_id: 44, data_version: 'eeeeeeeeeeeeeeee', generated_at: at(-5 * keep) };
        const recent = {
          ...old,
          data_version: 'cccccccccccccccc',
          summary: 'a build of today',
          generated_at: at(-keep / 2),
        };
        const sameBuild = { ...old, carrier_id: 45, data_version: 'bbbbbbbbbbbbbbbb', generated_at: at(-3 * keep) };
        for (const e of [old, other, olderStill, recent, sameBuild]) await store.explainPut(e);
        const newer = { ...old, data_version: 'bbbbbbbbbbbbbbbb', summary: 'new', generated_at: at(0) };
        expect(await store.explainPut(newer)).toEqual({ entry: newer, inserted: true });
        expect(await store.explainGet(42, 'aaaaaaaaaaaaaaaa')).toBeUndefined();
        expect(await store.explainGet(43, 'aaaaaaaaaaaaaaaa')).toBeUndefined();
        expect(await store.explainGet(44, 'eeeeeeeeeeeeeeee')).toBeUndefined();
        expect(await store.explainGet(42, 'bbbbbbbbbbbbbbbb')).toEqual(newer);
        // Made within the day: a server on another build may still be serving it.
        expect(await store.explainGet(42, 'cccccccccccccccc')).toEqual(recent);
        // The same build, however old: the cache of the build being served.
        expect(await store.explainGet(45, 'bbbbbbbbbbbbbbbb')).toEqual(sameBuild);
        // Asked again for the same build: the stored row stays and nothing else is removed.
        expect(await store.explainPut({ ...newer, summary: 'later', generated_at: at(3 * keep) })).toEqual({
          entry: newer,
          inserted: false,
        });
        expect(await store.explainGet(42, 'cccccccccccccccc')).toEqual(recent);
      });
    });

    it('is healthy', async () => {
      expect(await store.health()).toEqual({ ok: true });
    });
  });
}
