// The official MCP inspector's CLI (@modelcontextprotocol/inspector-cli, a 2025-era client) against the
// carriers tools on POST /api/mcp: it lists both tools and calls each, signed in with --header, and what it
// prints is the REST routes' answers. Run as a child process against the test server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type buildCarriersFixture, readOnlyCarriersFixture, serveCarriers, type Json } from '../helpers/carriers.ts';
import { runInspector } from '../helpers/inspector.ts';
import { toMonth } from '../../server/carriers/quota.ts';

const NOW = new Date('2026-11-22T00:00:00Z');
let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let url = '';
let free = '';

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
  srv = await serveCarriers(built, { freeLookups: 5 });
  url = `${srv.base}/api/mcp`;
  free = (await srv.accounts().createKey('free', 'inspector', NOW)).key;
});
afterAll(async () => {
  await srv?.close();
  await built?.root.remove();
});

const restText = async (path: string, key?: string) =>
  (await fetch(`${srv.base}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} })).text();

/** The one text item of a printed tool result, which must also be its structured content. */
function textOf(result: Json | undefined): string {
  expect(result?.isError ?? false).toBe(false);
  expect(result?.content).toHaveLength(1);
  const text = result!.content[0].text as string;
  expect(result!.structuredContent).toEqual(JSON.parse(text));
  return text;
}

describe('the MCP inspector CLI', { timeout: 60_000 }, () => {
  it('lists the three carriers tools with their schemas', async () => {
    const run = await runInspector(url, { method: 'tools/list' });
    expect(run.code, run.stderr).toBe(0);
    const tools = (run.json as Json).tools as Json[];
    expect(tools.map((t) => t.name)).toEqual(['search_carrier', 'get_carrier_profile', 'get_changes']);
    expect(tools[0]!.inputSchema).toMatchObject({ required: ['query'] });
    expect(tools[1]!.inputSchema).toMatchObject({ required: ['carrier_id'] });
    expect(tools[2]!.inputSchema).toMatchObject({ properties: { since: { type: 'string' } } });
    for (const t of tools) expect(t.outputSchema).toMatchObject({ type: 'object' });
  });

  it('calls search_carrier without a key and prints the body of GET /api/search', async () => {
    const run = await runInspector(url, {
      method: 'tools/call',
      toolName: 'search_carrier',
      toolArgs: { query: 'alpha', limit: '5' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(textOf(run.json)).toBe(await restText('/api/search?q=alpha&limit=5'));
  });

  it('calls get_carrier_profile with a key, the id as a number or a string, and counts each call', async () => {
    const body = await restText('/api/carrier/1000001', free);
    const month = toMonth(new Date());
    const id = (await srv.accounts().findKey(free))!.id;
    const before = await srv.accounts().usage(id, month);
    for (const carrierId of ['1000001', '"1000001"']) {
      const run = await runInspector(url, {
        method: 'tools/call',
        toolName: 'get_carrier_profile',
        toolArgs: { carrier_id: carrierId },
        headers: { Authorization: `Bearer ${free}` },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(textOf(run.json)).toBe(body);
      expect((run.json as Json)._meta).toMatchObject({ ratelimit: { limit: 5 } });
    }
    expect(await srv.accounts().usage(id, month)).toBe(before + 2);
  });

  it('reports the 401 of a profile call without a key and exits 1', async () => {
    const run = await runInspector(url, {
      method: 'tools/call',
      toolName: 'get_carrier_profile',
      toolArgs: { carrier_id: '1000001' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('401');
    expect(run.stderr).toContain('unauthorized');
  });
});
