// The static-files row of the bench: the files of facilities' tree that no route answers, and nothing
// else, measured alone with --only statics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { facilitiesScenarios } from '../../bench/facilities.ts';
import { toSettings } from '../../bench/settings.ts';
import { createRng } from '../../contract/core/rng.ts';
import { type buildFixture, readOnlyFixture } from '../helpers/facilities.ts';

describe('the static-files row', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;

  beforeAll(async () => {
    fx = await readOnlyFixture();
  });

  afterAll(async () => {
    await fx?.root.remove();
  });

  const scenarios = () => facilitiesScenarios({ buildDir: fx.buildDir, stateDir: fx.root.path, rng: createRng(1) });

  it('asks for every file of the tree no route answers, as a browser does', () => {
    const row = scenarios().find((s) => s.statics)!;
    const sums = JSON.parse(readFileSync(join(fx.buildDir, 'checksums.json'), 'utf8')) as {
      files: Record<string, string>;
    };
    const files = Object.keys(sums.files).filter((f) => !f.startsWith('api/') && !/\.(gz|br)$/.test(f));
    expect(files).toContain('index.html');
    expect(row.paths.sort()).toEqual(['/checksums.json', '/manifest.json', ...files.map((f) => `/${f}`)].sort());
    expect(row.headers).toEqual({ 'Accept-Encoding': 'gzip, br' });
  });

  it('is all --only statics keeps, and no other --only keeps it', () => {
    const all = scenarios();
    const kept = (only?: string) =>
      all.filter(toSettings(['--quick', ...(only ? ['--only', only] : [])])!.keep).map((s) => s.name);
    expect(kept('statics')).toEqual(['static files']);
    expect(kept()).toContain('static files');
    expect(kept('lookups')).toEqual(['facility/:id']);
  });
});
