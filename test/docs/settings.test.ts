// The settings registry both ways: every setting it declares is documented with its default in
// docs/configuration.md and read by the code, and no source file reads an environment variable the registry
// does not declare. The defaults the code keeps beside it agree with it, and --help lists what the server reads.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSettingName, SETTINGS, type SettingSpec } from '../../contract/core/settings-registry.ts';
import { CARRIER_INPUTS } from '../../pipeline/carriers/inputs.ts';
import { toUpstreamFiles } from '../../pipeline/nightly/sources.ts';
import { PULL_LEASE_MS } from '../../server/economy/cache.ts';
import { SERVICES } from '../../server/services.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CONFIGURATION = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
const REGISTRY = join(ROOT, 'contract', 'core', 'settings-registry.ts');
const ENTRIES = Object.entries(SETTINGS as Record<string, SettingSpec>);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|mjs)$/.test(p) ? [p] : [];
  });
}

const FILES = ['contract', 'pipeline', 'server']
  .flatMap((d) => sources(join(ROOT, d)))
  .filter((f) => f !== REGISTRY)
  .map((f) => ({ name: relative(ROOT, f), text: readFileSync(f, 'utf8') }));

/** Variables a file reads straight from an environment object: `process.env.X`, `env.X`, `env['X']`. */
function directReads(text: string): string[] {
  return [...text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\])/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
}

/** The rows of the configuration table: variable → default cell. */
const ROWS = new Map(
  [...CONFIGURATION.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| (.*?) \| /gm)].map((m) => [m[1] ?? '', m[2] ?? '']),
);

describe('settings registry', () => {
  it.each(ENTRIES)('docs/configuration.md documents %s with its default', (name, spec) => {
    const shown = spec.shown ?? `\`${spec.default}\``;
    expect(ROWS.get(name)).toBe(shown);
  });

  it('documents no variable the registry does not declare', () => {
    expect([...ROWS.keys()].filter((name) => !isSettingName(name))).toEqual([]);
  });

  it.each(ENTRIES.map(([name]) => name))('%s is read by the code', (name) => {
    expect(FILES.filter((f) => f.text.includes(`'${name}'`)).map((f) => f.name)).not.toEqual([]);
  });

  it('no source reads an environment variable the registry does not declare', () => {
    const stray = FILES.flatMap((f) => directReads(f.text).map((name) => `${f.name}: ${name}`)).filter(
      (read) => !isSettingName(read.slice(read.indexOf(': ') + 2)),
    );
    expect(stray).toEqual([]);
  });

  it('finds direct reads in every form', () => {
    expect(directReads("process.env.FOO; env.BAR; env['BAZ']; env[name]; options.env.QUX")).toEqual([
      'FOO',
      'BAR',
      'BAZ',
      'QUX',
    ]);
  });

  it('agrees with the defaults the code keeps beside it', () => {
    const nightly = Object.fromEntries(
      [...toUpstreamFiles('facilities', {}).files, ...toUpstreamFiles('carriers', {}).files].map((f) => [f.env, f.url]),
    );
    for (const [name, url] of Object.entries(nightly))
      expect(url, name).toBe(SETTINGS[name as keyof typeof SETTINGS].default);
    expect(nightly.FMCSA_CENSUS_URL).toBe(CARRIER_INPUTS.census.url);
    expect(nightly.FMCSA_CRASH_URL).toBe(CARRIER_INPUTS.crash.url);
    expect(String(PULL_LEASE_MS)).toBe(SETTINGS.ECONOMY_PULL_LEASE_MS.default);
    for (const svc of Object.values(SERVICES)) expect(String(svc.defaultPort)).toBe(SETTINGS[svc.portEnv].default);
  });

  it("the server's --help names every setting the server reads", () => {
    const help = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts'), '--help'], {
      encoding: 'utf8',
    });
    for (const [name, spec] of ENTRIES) if (spec.readBy.includes('server')) expect(help).toContain(name);
  });
});
