// Watchlists and webhook deliveries in the account store, one suite run against both stores: the embedded
// SQLite file and PostgreSQL. "Another" store is another server process: a second connection to the same
// file, or a second pool on the same database; the limits and the claims hold across them.
import { afterEach, describe, expect, it } from 'vitest';
import type { Delivery, NewWatchlist } from '../../../server/core/watchlist-store.ts';
import { storeBackends } from '../../helpers/account-store.ts';

const NOW = new Date('2026-03-01T00:00:00.000Z');

const { sqlite, postgres } = storeBackends('watchlists');

const list = (id: string, keyId: string, carriers = [3, 5]): NewWatchlist => ({
  id,
  key_id: keyId,
  name: `list ${id}`,
  carriers,
  created_at: NOW.toISOString(),
  start: 'c1_start',
  webhook: { url: 'https://hooks.example/receive', secret: 'whsec_c2VjcmV0' },
});

const delivery = (listId: string, build: string, over: Partial<Delivery> = {}): Delivery => ({
  list_id: listId,
  build,
  data_version: build,
  msg_id: `msg_${listId}_${build}`,
  status: 'pending',
  attempts: 0,
  created_at: NOW.toISOString(),
  next_at: NOW.toISOString(),
  last_at: null,
  last_status: null,
  last_error: null,
  ...over,
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

for (const backend of [sqlite, postgres]) {
  describe.skipIf(backend.skip)(`watchlists in the account store: ${backend.name}`, () => {
    const open = async () => {
      const o = await backend.open();
      cleanups.push(o.cleanup);
      return o;
    };

    it('keeps each key’s lists to itself: another key can neither see, replace nor remove them', async () => {
      const { store } = await open();
      const a = await store.createKey('free', 'a', NOW);
      const b = await store.createKey('premium', 'b', NOW);
      const w = store.watchlists;
      expect(await w.create(list('wl_a', a.id), 5)).toBe(true);
      expect(await w.list(a.id)).toEqual([
        expect.objectContaining({ id: 'wl_a', carriers: [3, 5], updated_at: NOW.toISOString() }),
      ]);
      expect(await w.list(b.id)).toEqual([]);
      expect(await w.get(b.id, 'wl_a')).toBeUndefined();
      const later = new Date(NOW.getTime() + 1000);
      expect(await w.replace(b.id, 'wl_a', { name: 'x', carriers: [1], webhook: null }, later)).toBeUndefined();
      expect(await w.remove(b.id, 'wl_a')).toBe(false);
      const replaced = await w.replace(a.id, 'wl_a', { name: 'renamed', carriers: [7], webhook: null }, later);
      expect(replaced).toMatchObject({
        name: 'renamed',
        carriers: [7],
        webhook: null,
        updated_at: later.toISOString(),
      });
      expect(await w.get(a.id, 'wl_a')).toEqual(replaced);
      expect(await w.remove(a.id, 'wl_a')).toBe(true);
      expect(await w.get(a.id, 'wl_a')).toBeUndefined();
    });

    it('adds no list past the key’s limit, exactly, with adds racing from two servers', async () => {
      const { store, another } = await open();
      const other = another();
      const key = await store.createKey('premium', 'racer', NOW);
      const adds = Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? other : store).watchlists.create(list(`wl_${i}`, key.id), 3),
      );
      const added = await Promise.all(adds);
      expect(added.filter(Boolean)).toHaveLength(3);
      expect(await store.watchlists.list(key.id)).toHaveLength(3);
    });

    it('owes a build’s delivery once, lets one run take it, and skips revoked keys and deliveries not due', async () => {
      const { store, another } = await open();
      const other = another();
      const live = await store.createKey('premium', 'live', NOW);
      const gone = await store.createKey('premium', 'gone', NOW);
      const w = store.watchlists;
      await w.create(list('wl_live', live.id), 5);
      await w.create(list('wl_gone', gone.id), 5);
      await w.create({ ...list('wl_quiet', live.id), webhook: null }, 5);
      expect((await w.withWebhooks()).map((l) => l.id).sort()).toEqual(['wl_gone', 'wl_live']);
      expect(await w.addDelivery(delivery('wl_live', 'b1'))).toBe(true);
      expect(await other.watchlists.addDelivery(delivery('wl_live', 'b1'))).toBe(false);
      expect(await w.addDelivery(delivery('wl_gone', 'b1'))).toBe(true);
      const later = new Date(NOW.getTime() + 60_000).toISOString();
      expect(await w.addDelivery(delivery('wl_live', 'b2', { next_at: later, created_at: later }))).toBe(true);
      await store.revokeKey(gone.id, NOW);
      expect((await w.withWebhooks()).map((l) => l.id)).toEqual(['wl_live']);
      // Due now: b1 of the live key's list alone.
      const due = await other.watchlists.due(NOW);
      expect(due.map((d) => [d.list_id, d.build])).toEqual([['wl_live', 'b1']]);
      // Two runs take it at once: one gets it.
      const until = new Date(NOW.getTime() + 60_000);
      const claims = await Promise.all([w.claim(due[0]!, NOW, until), other.watchlists.claim(due[0]!, NOW, until)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await w.due(NOW)).toEqual([]);
      // Not recorded (the run was killed): due again once the claim runs out.
      expect((await w.due(until)).map((d) => d.build)).toEqual(['b1', 'b2']);
      const done = {
        ...due[0]!,
        status: 'delivered' as const,
        attempts: 1,
        last_at: until.toISOString(),
        last_status: 204,
      };
      await other.watchlists.updateDelivery(done);
      expect(await w.delivery('wl_live', 'b1')).toEqual({ ...done, next_at: due[0]!.next_at });
      expect((await w.due(until)).map((d) => d.build)).toEqual(['b2']);
      expect(await w.claim(done, until, until)).toBe(false);
      expect((await w.lastDelivery('wl_live'))?.build).toBe('b2');
      // Removing the list removes its deliveries.
      expect(await w.remove(live.id, 'wl_live')).toBe(true);
      expect(await w.delivery('wl_live', 'b1')).toBeUndefined();
    });
  });
}
