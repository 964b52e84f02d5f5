// The explorer's files as the pipeline writes them and the server serves them (docs/contracts/explorer.md):
// every view's JavaScript and CSS within 150 kB gzipped, chart library included; a page that runs no inline
// script and names only its own hashed assets; the tree's copy served at `/` with the page policy, the
// assets with their types and `immutable` caching, their compressed siblings, and 304s.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLORERS, type ExplorerService, explorerAssets, toExplorerPage } from '../../pipeline/core/explorer.ts';
import { PAGE_POLICY } from '../../server/core/payload.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { type buildFixture, readOnlyFixture } from '../helpers/facilities.ts';
import { type Running, startService } from '../helpers/server.ts';

/** The contract's limit for the JavaScript and CSS of any view, compressed with gzip. */
const MAX_GZIPPED = 150_000;
const SERVICES = Object.keys(EXPLORERS) as ExplorerService[];

describe('explorer assets', () => {
  it.each(SERVICES)(
    '%s: JavaScript and CSS of every view within 150 kB gzipped, chart library included',
    async (service) => {
      const assets = await explorerAssets(service);
      // One script and one stylesheet serve every view of the service: each view loads exactly these.
      expect(assets.files.map((f) => f.path).sort()).toEqual([assets.script, assets.style].sort());
      const gzipped = assets.files.map((f) => gzipSync(f.text, { level: 9 }).length);
      const total = gzipped.reduce((a, b) => a + b, 0);
      console.log(
        `${service} explorer: ${assets.files.map((f, i) => `${f.path} ${gzipped[i]} B`).join(', ')}; ${total} B gzipped`,
      );
      expect(total).toBeLessThanOrEqual(MAX_GZIPPED);
      // uPlot is in the bundle, not fetched from elsewhere.
      expect(assets.files.find((f) => f.path === assets.script)!.text).toContain('uplot');
    },
  );

  it.each(SERVICES)('%s: hashed names that change with the content', async (service) => {
    const assets = await explorerAssets(service);
    expect(assets.script).toMatch(/^assets\/explorer-[A-Z2-7]{8}\.js$/);
    expect(assets.style).toMatch(/^assets\/explorer-[A-Z2-7]{8}\.css$/);
    // The same sources give the same names: a build is reproducible.
    expect((await explorerAssets(service)).script).toBe(assets.script);
  });

  it.each(SERVICES)('%s: the page runs no inline script and loads only its own assets', async (service) => {
    const assets = await explorerAssets(service);
    const page = toExplorerPage(service, assets, {
      demo: true,
      sources: [
        {
          title: 'A <dataset>',
          publisher: 'P & Q',
          licence: { name: 'L', url: 'https://example.org/licence' },
          attribution: 'Contains "information".',
        },
      ],
    });
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => [m[1]!.trim(), m[2]])).toEqual([[`type="module" src="${assets.script}"`, '']]);
    expect(page).not.toMatch(/\son[a-z]+=/i);
    expect(page).toContain(`<link rel="stylesheet" href="${assets.style}">`);
    // Other sites appear only as links a person may follow (the credits), never as something loaded.
    for (const m of page.matchAll(/(?:src|href)="(https?:[^"]*)"/g)) expect(page).toContain(`<a href="${m[1]}"`);
    expect(page).toContain('A &lt;dataset&gt;');
    expect(page).toContain('Demo data');
    expect(page).toContain('<main id="app"');
  });
});

describe('the explorer in the static tree', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Running<unknown>;
  let files: Record<string, string>;

  beforeAll(async () => {
    fx = await readOnlyFixture();
    server = await startService(facilities, fx.outDir);
    files = (JSON.parse(readFileSync(join(fx.buildDir, 'checksums.json'), 'utf8')) as { files: Record<string, string> })
      .files;
  });
  afterAll(async () => {
    await server?.close();
    await fx?.root.remove();
  });

  const assetsOf = () => Object.keys(files).filter((f) => /^assets\/[^/]+\.(js|css)$/.test(f));

  it('is written by the build with its compressed siblings and checksums', () => {
    expect(files['index.html']).toBeDefined();
    const assets = assetsOf();
    expect(assets.length).toBe(2);
    for (const f of ['index.html', ...assets]) {
      expect(files[`${f}.gz`], f).toBeDefined();
      expect(files[`${f}.br`], f).toBeDefined();
    }
    const page = readFileSync(join(fx.buildDir, 'index.html'), 'utf8');
    for (const a of assets) expect(page).toContain(`"${a}"`);
  });

  it('answers / with the page: HTML, the page policy, revalidated, the bytes of index.html', async () => {
    const page = readFileSync(join(fx.buildDir, 'index.html'));
    for (const path of ['/', '/index.html']) {
      const res = await fetch(`${server.base}${path}`, { headers: { 'Accept-Encoding': 'identity' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(PAGE_POLICY);
      expect(res.headers.get('cache-control')).toBe('public, no-cache');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer()).equals(page)).toBe(true);
    }
    const head = await fetch(`${server.base}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const again = await fetch(`${server.base}/`, { headers: { 'If-None-Match': head.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, no-cache');
  });

  it('serves the hashed assets with their types, compressed, cached immutable', async () => {
    for (const asset of assetsOf()) {
      const type = asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
      const res = await fetch(`${server.base}/${asset}`, { headers: { 'Accept-Encoding': 'br' } });
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBeNull();
      expect(await res.text()).toBe(readFileSync(join(fx.buildDir, asset), 'utf8'));
      // The brotli body's tag revalidates the brotli body (each coding has a tag of its own).
      const again = await fetch(`${server.base}/${asset}`, {
        headers: { 'If-None-Match': res.headers.get('etag')!, 'Accept-Encoding': 'br' },
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    // Only hashed assets are immutable: the data keeps its five minutes.
    expect((await fetch(`${server.base}/manifest.json`)).headers.get('cache-control')).toBe('public, max-age=300');
    expect((await fetch(`${server.base}/assets/`)).status).toBe(404);
    expect((await fetch(`${server.base}/assets/explorer.js`)).status).toBe(404);
  });
});
