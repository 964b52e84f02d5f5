// Settings read from the environment at start-up: decimal digits as written, anything else a ConfigError
// (server/main.ts prints its message and exits 1, without a stack).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toLlmConfig } from '../../server/carriers/llm.ts';
import { toStatcanBaseUrl, STATCAN_WDS_DEFAULT_URL } from '../../contract/economy/upstream/statcan.ts';
import { BOC_VALET_DEFAULT_URL, toValetBaseUrl } from '../../contract/economy/upstream/valet.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import { pullLeaseSetting, toUpstreamUrls } from '../../server/economy/stores.ts';
import { ConfigError, flagSetting, urlSetting } from '../../contract/core/settings.ts';
import { toFreeLookups } from '../../server/services.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** A CLI of the project run as npm runs it, with `env` added to this process's environment. */
const runTsx = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...env },
  });

describe('FREE_PROFILE_LOOKUPS', () => {
  it('takes a whole number as written, 25 when unset or empty', () => {
    expect(toFreeLookups(undefined)).toBe(25);
    expect(toFreeLookups('')).toBe(25);
    expect(toFreeLookups('0')).toBe(0);
    expect(toFreeLookups('100')).toBe(100);
  });

  it.each(['abc', '0x10', '1e1', '-1', ' 7', '2.5', '99999999999999999999'])('refuses %j', (raw) => {
    expect(() => toFreeLookups(raw)).toThrow(ConfigError);
    expect(() => toFreeLookups(raw)).toThrow(`FREE_PROFILE_LOOKUPS must be a whole number ≥ 0, not ${raw}`);
  });
});

describe('EXPLAIN_LLM_TIMEOUT_MS', () => {
  const env = { EXPLAIN_LLM_URL: 'http://127.0.0.1:9/v1', EXPLAIN_LLM_MODEL: 'm' };
  it('takes milliseconds as written', () => {
    expect(toLlmConfig({ ...env, EXPLAIN_LLM_TIMEOUT_MS: '2500' })?.timeoutMs).toBe(2500);
  });
  it.each(['0x10', '1e3', 'soon', '0'])('refuses %j', (raw) => {
    expect(() => toLlmConfig({ ...env, EXPLAIN_LLM_TIMEOUT_MS: raw })).toThrow(ConfigError);
  });
});

describe('RELOAD_INTERVAL_MS', () => {
  it('stops the server at start with the reason, exit 1', () => {
    const r = runTsx(['server/main.ts', '--service', 'economy', '--port', '0'], { RELOAD_INTERVAL_MS: 'often' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('RELOAD_INTERVAL_MS must be a whole number of milliseconds (0 = off), not often\n');
  });
});

describe('SHOW_RESTRICTED_PERCENTILES (flagSetting)', () => {
  it('is true or false in any case, false when unset or empty', () => {
    expect(flagSetting('X', undefined)).toBe(false);
    expect(flagSetting('X', '')).toBe(false);
    expect(flagSetting('X', 'true')).toBe(true);
    expect(flagSetting('X', 'TRUE')).toBe(true);
    expect(flagSetting('X', 'False')).toBe(false);
  });
  it.each(['1', 'yes', 'on', ' true', 'tru'])('refuses %j', (raw) => {
    expect(() => flagSetting('SHOW_RESTRICTED_PERCENTILES', raw)).toThrow(
      new ConfigError(`SHOW_RESTRICTED_PERCENTILES must be true or false, not ${raw}`),
    );
  });
  it('stops a build before it reads anything, exit 2', () => {
    const r = runTsx(['pipeline/cli.ts', '--service', 'carriers', '--input', '/nonexistent'], {
      SHOW_RESTRICTED_PERCENTILES: 'yes',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('SHOW_RESTRICTED_PERCENTILES must be true or false, not yes\n');
  });
});

describe("upstream addresses (STATCAN_WDS_URL, BOC_VALET_URL, the nightly job's *_URL)", () => {
  it('take an absolute http(s) address, the public service when unset or empty, and refuse anything else by name', () => {
    expect(urlSetting('X_URL', 'http://127.0.0.1:9/wds').href).toBe('http://127.0.0.1:9/wds');
    expect(toStatcanBaseUrl({})).toBe(STATCAN_WDS_DEFAULT_URL);
    expect(toStatcanBaseUrl({ STATCAN_WDS_URL: '' })).toBe(STATCAN_WDS_DEFAULT_URL);
    expect(toStatcanBaseUrl({ STATCAN_WDS_URL: 'https://example.org/wds' })).toBe('https://example.org/wds');
    expect(toValetBaseUrl({})).toBe(BOC_VALET_DEFAULT_URL);
    expect(toUpstreamUrls({ STATCAN_WDS_URL: 'https://example.org/wds' })).toEqual({
      statcan: 'https://example.org/wds',
      valet: BOC_VALET_DEFAULT_URL,
    });
    // The server refuses them at start-up; the nightly CLI checks them itself before any download.
    for (const bad of ['wds', 'ftp://example.org/x', 'file:///etc/passwd', 'http//x']) {
      expect(() => toUpstreamUrls({ STATCAN_WDS_URL: bad })).toThrow(
        new ConfigError(`STATCAN_WDS_URL must be an http:// or https:// address, not ${bad}`),
      );
      expect(() => createEconomyService({ stateDir: '/nonexistent', env: { STATCAN_WDS_URL: bad } })).toThrow(
        ConfigError,
      );
    }
    expect(() => toUpstreamUrls({ BOC_VALET_URL: 'valet' })).toThrow(ConfigError);
  });
});

describe('DATABASE_URL and ECONOMY_PULL_LEASE_MS', () => {
  it('take a lease time up to the 30 s the contract allows, 30 s when unset', () => {
    expect(pullLeaseSetting(undefined)).toBe(30_000);
    expect(pullLeaseSetting('')).toBe(30_000);
    expect(pullLeaseSetting('2000')).toBe(2000);
    for (const bad of ['999', '30001', '2e3', 'soon']) expect(() => pullLeaseSetting(bad)).toThrow(ConfigError);
  });

  it('stop the server at start with the reason, exit 1, never printing the address given', () => {
    const bad = runTsx(['server/main.ts', '--service', 'economy', '--port', '0'], {
      DATABASE_URL: 'mysql://u:secret@db/x',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe(
      'cannot serve economy: DATABASE_URL must be a postgres://user:password@host:port/database address\n',
    );
    const long = runTsx(['server/main.ts', '--service', 'economy', '--port', '0'], { ECONOMY_PULL_LEASE_MS: '60000' });
    expect(long.status).toBe(1);
    expect(long.stderr).toMatch(/^cannot serve economy: ECONOMY_PULL_LEASE_MS must be .* not 60000\n$/);
  });
});
