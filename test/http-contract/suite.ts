// One contract suite for every service (docs/contracts/common.md): documents answer 200 with a strong
// ETag and 304 on revalidation, HEAD mirrors GET, unknown resources and routes are canonical 404 problems,
// bad parameters are 400 problems listing each one, other methods are 405 with Allow, traversal never
// escapes the build folder, and every static file of the build equals the API's body at the same path.
// Every response the suite receives is checked against the service's own OpenAPI document (status,
// Content-Type, body schema, headers), and /docs renders that document with nothing from another host.
// A service's own test file supplies the samples in a few lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../pipeline/core/openapi.ts';
import {
  DOCS_PATH,
  DOCS_SCRIPT_FILE,
  DOCS_SCRIPT_PATH,
  PRIVATE_PREFIX,
  privateDirOf,
  toDocumentFile,
} from '../../contract/core/layout.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { conformingFetch, OpenApiChecker } from './openapi-check.ts';

export interface ContractTarget {
  name: string;
  /** Starts the service over a fixture build; returns its base URL and build folder. */
  start(): Promise<{ base: string; buildDir: string; close(): Promise<void> }>;
  /** Paths (with query, if any) that must answer 200 JSON. */
  documents: string[];
  /** Paths that must answer the canonical 404. */
  notFound: string[];
  /** Requests that must answer 400, with the parameters each must name. */
  badParameters: { path: string; parameters: string[] }[];
  /** A path known for GET only. */
  getOnly: string;
  /** A document served with precompressed br/gzip variants, if the service has any. */
  compressed?: string;
  /** Whether the build has a public static tree of API documents (every GET without a query). */
  staticTree: boolean;
  /** URL path of the service's OpenAPI document. */
  openapi: string;
}

async function expectProblem(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  schemas().assert('core/problem', body, `${status} body`);
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(body.type).toBe(`/problems/${code.replaceAll('_', '-')}`);
  return body;
}

export function contractSuite(target: ContractTarget): void {
  describe(`${target.name}: shared contract`, () => {
    let base = '';
    let buildDir = '';
    let close = async () => {};
    let doc: OpenApiDocument;
    let checker: OpenApiChecker | undefined;
    beforeAll(async () => {
      ({ base, buildDir, close } = await target.start());
      doc = (await (await globalThis.fetch(base + target.openapi)).json()) as OpenApiDocument;
      checker = new OpenApiChecker(doc);
    });
    afterAll(() => close());

    // Every request of this suite goes through this fetch: each response is checked against the service's
    // OpenAPI document before the test sees it, so the document cannot drift from what the service answers.
    const fetch = conformingFetch(() => checker, target.openapi);

    it('serves the OpenAPI 3.1 document its build wrote, valid against the official schema', async () => {
      const res = await fetch(base + target.openapi);
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(readFileSync(join(buildDir, toDocumentFile(target.openapi))))).toBe(true);
      const validator = new Validator();
      const result = await validator.validate(JSON.parse(body.toString('utf8')) as Record<string, unknown>);
      expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });

    it('renders the document at /docs with a bundle it serves itself, and nothing from another host', async () => {
      const page = await fetch(base + DOCS_PATH);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain(`data-url="${target.openapi}"`);
      const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(new RegExp(`^${DOCS_SCRIPT_PATH}\\?v=[0-9a-f]+$`));
      // Every URL the page names before its credits is a path on this service: no scheme, no protocol-relative
      // host. The credits link to the licences' pages, which load nothing until followed.
      const [reference = '', credits = ''] = html.split('<footer id="credits"');
      for (const [, url] of reference.matchAll(/(?:src|href|data-url)="([^"]*)"/g)) expect(url).toMatch(/^\/(?!\/)/);
      expect(reference).not.toMatch(/https?:|\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
      expect(credits).not.toMatch(/<(?:script|img|link|iframe|style|object)\b|\ssrc=/i);
      const config = JSON.parse(/data-configuration="([^"]*)"/.exec(html)![1]!.replaceAll('&quot;', '"')) as Record<
        string,
        unknown
      >;
      expect(config).toMatchObject({ withDefaultFonts: false, telemetry: false });

      const script = await fetch(base + scripts[0]!);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // Without the page's version (or with another), the path may hold another bundle after an upgrade.
      for (const other of [DOCS_SCRIPT_PATH, `${DOCS_SCRIPT_PATH}?v=0000000000000000`]) {
        const unversioned = await fetch(base + other);
        expect(unversioned.status, other).toBe(200);
        expect(unversioned.headers.get('cache-control'), other).toBe('public, max-age=300');
        await unversioned.arrayBuffer();
      }
      const js = await script.text();
      // The bundle is a file of the build's tree, so the server needs no renderer package at run time.
      expect(Buffer.from(js).equals(readFileSync(join(buildDir, DOCS_SCRIPT_FILE)))).toBe(true);
      expect(js.length).toBeGreaterThan(100_000);
      expect(js).toContain('createApiReference');
      const again = await fetch(base + scripts[0]!, { headers: { 'If-None-Match': script.headers.get('etag')! } });
      expect(again.status).toBe(304);
    });

    it("credits every source of the build at /docs: publisher, licence and attribution, in the page's own footer", async () => {
      const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Manifest;
      expect(manifest.sources.length).toBeGreaterThan(0);
      const html = await (await fetch(base + DOCS_PATH)).text();
      const footer = /<footer id="credits"[^>]*>([\s\S]*)<\/footer>/.exec(html)?.[1] ?? '';
      const text = footer
        .replaceAll(/<[^>]+>/g, '')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&');
      for (const s of manifest.sources) {
        expect(text).toContain(s.title);
        expect(text).toContain(s.publisher);
        expect(text).toContain(s.licence.name);
        expect(text).toContain(s.attribution);
        expect(footer).toContain(`href="${s.licence.url}"`);
      }
      expect(text.includes('DEMO DATA: generated, not real')).toBe(manifest.demo);
      expect(text).toContain('Apache License 2.0');
    });

    it('answers /healthz with the manifest version', async () => {
      const res = await fetch(`${base}/healthz`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
      expect(body).toMatchObject({
        status: 'ok',
        service: target.name,
        data_version: manifest.data_version,
        demo: manifest.demo,
      });
      expect(res.headers.get('x-data-version')).toBe(manifest.data_version);
    });

    it.each(target.documents)('GET %s → 200 JSON with a strong ETag, 304 on revalidation, HEAD alike', async (path) => {
      const res = await fetch(base + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-data-version')).toMatch(/^[0-9a-f]{16}$/);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);
      await res.json();
      const again = await fetch(base + path, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const weak = await fetch(base + path, { headers: { 'If-None-Match': `"nope", W/${etag}` } });
      expect(weak.status).toBe(304);
      const head = await fetch(base + path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      expect(head.headers.get('content-length')).toBe(res.headers.get('content-length'));
      expect(await head.text()).toBe('');
    });

    it.skipIf(!target.compressed)('serves precompressed bodies to clients that accept them', async () => {
      const path = target.compressed!;
      const plain = await (await fetch(base + path, { headers: { 'Accept-Encoding': 'identity' } })).text();
      for (const encoding of ['br', 'gzip']) {
        const res = await fetch(base + path, { headers: { 'Accept-Encoding': encoding } });
        expect(res.headers.get('vary')).toBe('Accept-Encoding');
        // fetch decodes the body; it must equal the identity body.
        expect(await res.text()).toBe(plain);
      }
    });

    it.each(target.notFound)('GET %s → canonical 404 problem', async (path) => {
      await expectProblem(await fetch(base + path), 404, 'not_found');
    });

    it('matches paths exactly, routes and files alike: another case or a trailing slash is a 404', async () => {
      const paths = [...target.documents.filter((p) => !p.includes('?')), '/healthz', '/manifest.json', target.openapi];
      for (const path of paths) {
        await expectProblem(await fetch(`${base}${path}/`), 404, 'not_found');
        await expectProblem(await fetch(`${base}${path.toUpperCase()}`), 404, 'not_found');
      }
    });

    it('answers unknown routes with a 404 problem, never a stack', async () => {
      const body = await expectProblem(await fetch(`${base}/no/such/route`), 404, 'not_found');
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts/);
    });

    it.each(target.badParameters)('GET $path → 400 naming each bad parameter', async ({ path, parameters }) => {
      const body = await expectProblem(await fetch(base + path), 400, 'invalid_parameter');
      const named = (body.errors as { parameter: string }[]).map((e) => e.parameter).sort();
      expect(named).toEqual([...parameters].sort());
      expect(String(body.detail)).toContain(parameters[0]!);
    });

    it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s on a GET route → 405 with Allow', async (method) => {
      const res = await fetch(base + target.getOnly, { method });
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      await expectProblem(res, 405, 'method_not_allowed');
    });

    it('explains each problem type at its URI', async () => {
      const res = await fetch(`${base}/problems/invalid-parameter`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toContain('Invalid parameter');
    });

    it.each([
      '/../package.json',
      '/..%2f..%2fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/api/..%2f..%2f..%2fpackage.json',
      '/..%5c..%5cpackage.json',
      '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd',
      '/.prev/manifest.json',
      '/private/x',
      '/%70rivate/x',
      '//private/x',
    ])('never serves %s from outside the build', async (path) => {
      const res = await fetch(base + path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('"dependencies"');
    });

    it.skipIf(!target.staticTree)('serves the static tree at the same paths as the API, byte for byte', async () => {
      const checksums = JSON.parse(readFileSync(join(buildDir, 'checksums.json'), 'utf8')) as {
        files: Record<string, string>;
      };
      const docs = Object.keys(checksums.files).filter((f) => f.startsWith('api/') && f.endsWith('.json'));
      expect(docs.length).toBeGreaterThan(0);
      for (const file of docs) {
        // A file is served at the path the API documents for it: its own (`/api/v1/openapi.json`), else
        // without `.json`.
        const path = doc.paths[`/${file}`] ? `/${file}` : `/${file.slice(0, -'.json'.length)}`;
        const res = await fetch(base + path, { headers: { 'Accept-Encoding': 'identity' } });
        expect(res.status, file).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(buildDir, file))), file).toBe(true);
      }
    });

    it('has healthz.json in its tree: the same bytes as GET /healthz', async () => {
      const res = await fetch(`${base}/healthz`, { headers: { 'Accept-Encoding': 'identity' } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(buildDir, 'healthz.json')))).toBe(true);
    });

    it('serves the manifest and the build report as static files', async () => {
      const res = await fetch(`${base}/manifest.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { service: string }).service).toBe(target.name);
      expect((await fetch(`${base}/report.json`)).status).toBe(200);
    });

    it('never serves the private part of the build', async () => {
      // Signed-in data sits beside the tree, in the folder the manifest names (carriers only): none of its
      // files is reachable through the tree, under private/ or at the top.
      const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Manifest;
      const dir = privateDirOf(buildDir, manifest);
      const files = dir
        ? Object.keys((JSON.parse(readFileSync(join(dir, 'checksums.json'), 'utf8')) as { files: object }).files)
        : [];
      expect(files.length > 0, 'private files').toBe(target.name === 'carriers');
      for (const file of [...files, 'checksums.json']) {
        expect((await fetch(`${base}/${PRIVATE_PREFIX}${file}`)).status, file).toBe(404);
      }
      for (const file of files) expect((await fetch(`${base}/${file}`)).status, file).toBe(404);
    });
  });
}
