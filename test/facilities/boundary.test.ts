// The explorer map's outline: the repository's Natural Earth file is Ontario, small, public domain, and the
// build publishes it under maps/ and lists the file in the manifest's sources; a damaged file stops the build
// by its path.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../contract/core/hash.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import type { MapBoundary } from '../../contract/types/facilities/boundary.ts';
import { BOUNDARY_FILE, BOUNDARY_TREE_PATH, loadBoundary } from '../../pipeline/facilities/boundary.ts';
import { ONTARIO_BOUNDS } from '../../pipeline/facilities/coordinates.ts';
import { readOnlyFixture } from '../helpers/facilities.ts';
import { tempDir } from '../helpers/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const shipped = readFileSync(join(ROOT, BOUNDARY_FILE));
const doc = JSON.parse(shipped.toString('utf8')) as MapBoundary;
const polygons = doc.features[0]!.geometry.coordinates;
const positions = polygons.flat(2);

describe('the shipped boundary', () => {
  it("is Ontario's outline from Natural Earth's 1:50m admin-1 layer, public domain, with where it came from", () => {
    const { name, source } = doc.features[0]!.properties;
    expect(name).toBe('Ontario');
    expect(source).toMatchObject({
      publisher: 'Natural Earth',
      version: '4.0.0',
      scale: '1:50,000,000',
      licence: { name: 'Public domain (Natural Earth)', url: 'https://www.naturalearthdata.com/about/terms-of-use/' },
    });
    expect(source.url).toMatch(/^https:\/\/www\.naturalearthdata\.com\/downloads\/50m-cultural-vectors\//);
    expect(source.copied_from_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is small, closed, counterclockwise outside, and spans the province the facilities’ coordinates are held to', () => {
    expect(positions.length).toBeGreaterThan(500);
    expect(positions.length).toBeLessThan(5000);
    expect(shipped.length).toBeLessThan(64 * 1024);
    for (const polygon of polygons) {
      const outer = polygon[0]!;
      expect(outer[0]).toEqual(outer[outer.length - 1]);
      // The shoelace sum of an exterior ring is positive when it runs counterclockwise (RFC 7946 §3.1.6).
      const twiceArea = outer.reduce((s, [x, y], i) => {
        const [x2, y2] = outer[(i + 1) % outer.length]!;
        return s + x! * y2! - x2! * y!;
      }, 0);
      expect(twiceArea).toBeGreaterThan(0);
    }
    const lon = positions.map((p) => p[0]!);
    const lat = positions.map((p) => p[1]!);
    // Within the bounds' margin of about 0.2°, and reaching both ends of it.
    expect(Math.min(...lat)).toBeGreaterThan(ONTARIO_BOUNDS.south);
    expect(Math.min(...lat)).toBeLessThan(ONTARIO_BOUNDS.south + 0.3);
    expect(Math.max(...lat)).toBeLessThan(ONTARIO_BOUNDS.north);
    expect(Math.max(...lat)).toBeGreaterThan(ONTARIO_BOUNDS.north - 0.3);
    expect(Math.min(...lon)).toBeGreaterThan(ONTARIO_BOUNDS.west);
    expect(Math.max(...lon)).toBeLessThan(ONTARIO_BOUNDS.east);
  });

  it('loads as a manifest source: the file, its polygons, bytes, sha256 and the credit its properties give', () => {
    const { bytes, source } = loadBoundary();
    expect(bytes.equals(shipped)).toBe(true);
    const { title, url, publisher, licence, attribution } = doc.features[0]!.properties.source;
    expect(source).toEqual({
      file: BOUNDARY_FILE,
      kind: 'boundary',
      rows: polygons.length,
      bytes: shipped.length,
      sha256: sha256(shipped),
      url,
      title,
      publisher,
      licence,
      attribution,
    });
  });
});

describe('a damaged boundary file', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('boundary');
  });
  afterAll(() => dir.remove());

  it.each([
    ['not JSON', '{"type": "FeatureCollection", ', /is not UTF-8 JSON/],
    [
      'without its source',
      JSON.stringify({ ...doc, features: [{ ...doc.features[0], properties: { name: 'Ontario' } }] }),
      /must have required property 'source'/,
    ],
    [
      'a point, not polygons',
      JSON.stringify({
        ...doc,
        features: [{ ...doc.features[0], geometry: { type: 'Point', coordinates: [-79, 43] } }],
      }),
      /geometry\/type: must be equal to constant/,
    ],
    ['an empty object', '{}', /does not match facilities\/boundary/],
  ])('stops the build by its path: %s', async (_what, text, message) => {
    const path = join(dir.path, 'ontario.geojson');
    await writeFile(path, text);
    expect(() => loadBoundary(path)).toThrow(message);
    expect(() => loadBoundary(path)).toThrow(path);
  });
});

describe('the build', () => {
  let built: Awaited<ReturnType<typeof readOnlyFixture>>;
  beforeAll(async () => {
    built = await readOnlyFixture();
  }, 60_000);
  afterAll(() => built.root.remove());

  it('publishes the document under maps/ as compact JSON, checksummed, and lists the file in the manifest’s sources', () => {
    const published = readFileSync(join(built.buildDir, BOUNDARY_TREE_PATH));
    expect(JSON.parse(published.toString('utf8'))).toEqual(doc);
    expect(published.length).toBeLessThan(shipped.length);
    const checksums = JSON.parse(readFileSync(join(built.buildDir, 'checksums.json'), 'utf8')) as {
      files: Record<string, string>;
    };
    expect(checksums.files[BOUNDARY_TREE_PATH]).toBe(sha256(published));
    expect(checksums.files[`${BOUNDARY_TREE_PATH}.gz`]).toMatch(/^[0-9a-f]{64}$/);
    const manifest = JSON.parse(readFileSync(join(built.buildDir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.sources.filter((s) => s.kind === 'boundary')).toEqual([loadBoundary().source]);
    // The explorer's page credits it with the build's other sources.
    const page = readFileSync(join(built.buildDir, 'index.html'), 'utf8');
    expect(page).toContain('Made with Natural Earth.');
  });
});
