// data_version (pipeline/core/manifest.ts): a function of the inputs, the options and the code, not the clock.
import { describe, expect, it } from 'vitest';
import { toManifest, type SourceFile } from '../../contract/core/manifest.ts';

const source: SourceFile = {
  file: 'a.csv',
  kind: 'ontario_ghg',
  rows: 3,
  bytes: 120,
  sha256: 'ab'.repeat(32),
  url: 'file:a.csv',
  title: 'A dataset',
  publisher: 'A publisher',
  licence: { name: 'A licence', url: 'https://licence.invalid/' },
  attribution: 'Contains information of a publisher.',
};
const manifest = (over: Partial<Parameters<typeof toManifest>[0]> = {}) =>
  toManifest({
    service: 'facilities',
    demo: false,
    sources: [source],
    options: { year: 2024 },
    counts: {},
    codeHash: 'c1',
    builtAt: new Date('2026-01-01T00:00:00Z'),
    ...over,
  });

describe('data_version', () => {
  it('is the same for the same inputs, options and code whatever the build time', () => {
    expect(manifest({ builtAt: new Date('2026-06-01T00:00:00Z') }).data_version).toBe(manifest().data_version);
    expect(manifest().data_version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('differs with the inputs, an option, the code, and the demo label', () => {
    const base = manifest().data_version;
    expect(manifest({ sources: [{ ...source, sha256: 'cd'.repeat(32) }] }).data_version).not.toBe(base);
    expect(manifest({ options: { year: 2023 } }).data_version).not.toBe(base);
    expect(manifest({ codeHash: 'c2' }).data_version).not.toBe(base);
    expect(manifest({ demo: true }).data_version).not.toBe(base);
  });
});
