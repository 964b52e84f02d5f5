// Every environment variable the code reads, declared once: its default, a line of meaning and who reads
// it. The code reads the environment only through `readSetting` and the helpers below, and
// test/docs/settings.test.ts holds docs/configuration.md and the sources to this table.
import { wholeNumberSetting } from './settings.ts';

export type Env = Readonly<Record<string, string | undefined>>;
export type SettingReader = 'server' | 'build' | 'nightly' | 'keys CLI' | 'deliver';

export interface SettingSpec {
  /** The value when unset or empty; undefined when there is none. */
  readonly default: string | undefined;
  /** The default as docs/configuration.md writes it, when it says more than the value in backticks. */
  readonly shown?: string;
  readonly meaning: string;
  readonly readBy: readonly SettingReader[];
}

const FMCSA = 'https://data.transportation.gov/api/views';

export const SETTINGS = {
  DATA_DIR: {
    default: 'dist-data',
    meaning: 'build folder to serve (--data) and to build into (--out)',
    readBy: ['server', 'build', 'nightly', 'keys CLI'],
  },
  STATE_DIR: {
    default: 'state',
    shown: '`state` (also when set but empty)',
    meaning: 'runtime state: keys, allowance counters, caches, the vintage archive, downloads',
    readBy: ['server', 'nightly', 'keys CLI'],
  },
  HOST: { default: '127.0.0.1', meaning: 'interface to listen on (--host; 0.0.0.0 for all)', readBy: ['server'] },
  PORT_FACILITIES: { default: '8081', meaning: 'facilities port when all services run together', readBy: ['server'] },
  PORT_CARRIERS: { default: '8082', meaning: 'carriers port when all services run together', readBy: ['server'] },
  PORT_ECONOMY: { default: '8083', meaning: 'economy port when all services run together', readBy: ['server'] },
  DEMO: {
    default: 'on',
    meaning: 'on or off; off (--no-demo): a missing DATA_DIR/<service>/ stops the start',
    readBy: ['server'],
  },
  LOG: { default: 'json', meaning: 'json (one line per request on stdout) or off', readBy: ['server'] },
  RELOAD_INTERVAL_MS: {
    default: '5000',
    meaning: 'how often the server looks for a newly published build; 0 turns it off',
    readBy: ['server'],
  },
  CORS_ORIGINS: {
    default: undefined,
    shown: 'none',
    meaning: 'origins whose pages may call the signed-in carriers routes with a key',
    readBy: ['server'],
  },
  MCP_ALLOWED_HOSTS: {
    default: '127.0.0.1,localhost,[::1]',
    meaning: 'host names allowed in Host and Origin of MCP requests',
    readBy: ['server'],
  },
  DATABASE_URL: {
    default: undefined,
    shown: 'unset (state under `STATE_DIR`)',
    meaning: "PostgreSQL for carriers' keys and allowances and economy's cache, leases and vintages",
    readBy: ['server', 'keys CLI'],
  },
  FREE_PROFILE_LOOKUPS: {
    default: '25',
    meaning: 'profile lookups per calendar month (UTC) for a free key',
    readBy: ['server'],
  },
  WATCHLIST_FREE_MAX: {
    default: '1,25',
    meaning: 'watchlists a free key may keep, and carriers in each (lists,carriers)',
    readBy: ['server'],
  },
  WATCHLIST_PREMIUM_MAX: {
    default: '100,10000',
    meaning: 'watchlists a premium key may keep, and carriers in each (lists,carriers)',
    readBy: ['server'],
  },
  WEBHOOK_ALLOW_PRIVATE: {
    default: 'false',
    meaning:
      '1 or true: watchlist webhooks may use http and loopback, private, link-local and metadata addresses (tests, private deployments); 0 or false refuses them at POST/PUT and at delivery',
    readBy: ['server', 'deliver'],
  },
  SIGN_IN_FAILURES_PER_MINUTE: {
    default: '30',
    meaning: 'failed sign-ins a client address may make in a minute before a 429',
    readBy: ['server'],
  },
  TRUSTED_PROXIES: {
    default: '0',
    meaning: 'reverse proxies whose X-Forwarded-For entries the sign-in limit trusts',
    readBy: ['server'],
  },
  EXPLAIN_LLM_URL: {
    default: undefined,
    shown: 'unset (template only)',
    meaning: 'an OpenAI-compatible chat completions URL that writes the explain summaries',
    readBy: ['server'],
  },
  EXPLAIN_LLM_KEY: {
    default: undefined,
    shown: 'unset',
    meaning: 'sent to EXPLAIN_LLM_URL as a bearer token',
    readBy: ['server'],
  },
  EXPLAIN_LLM_MODEL: {
    default: undefined,
    shown: 'none; required with `EXPLAIN_LLM_URL`',
    meaning: 'the model asked for',
    readBy: ['server'],
  },
  EXPLAIN_LLM_TIMEOUT_MS: {
    default: '10000',
    meaning: 'how long an explain waits for the model before answering with the template',
    readBy: ['server'],
  },
  EXPLAIN_LLM_MAX_TOKENS: { default: '1024', meaning: 'max_tokens of each model request', readBy: ['server'] },
  EXPLAIN_LLM_CONCURRENCY: { default: '4', meaning: 'model calls under way at once', readBy: ['server'] },
  EXPLAIN_LLM_HOURLY_PER_KEY: { default: '20', meaning: 'model calls one key may cause an hour', readBy: ['server'] },
  EXPLAIN_LLM_BREAKER_FAILURES: {
    default: '3',
    meaning: 'consecutive model failures that open the breaker',
    readBy: ['server'],
  },
  EXPLAIN_LLM_BREAKER_COOLDOWN_MS: {
    default: '30000',
    meaning: 'how long an open breaker answers from the template',
    readBy: ['server'],
  },
  STATCAN_WDS_URL: {
    default: 'https://www150.statcan.gc.ca/t1/wds/rest',
    meaning: 'Statistics Canada Web Data Service base URL',
    readBy: ['server', 'nightly'],
  },
  BOC_VALET_URL: {
    default: 'https://www.bankofcanada.ca/valet',
    meaning: 'Bank of Canada Valet base URL',
    readBy: ['server', 'nightly'],
  },
  UPSTREAM_MAX_BYTES: {
    default: '67108864',
    shown: '`67108864` (64 MiB)',
    meaning: 'the largest answer an economy pull takes from an upstream',
    readBy: ['server'],
  },
  ECONOMY_PULL_LEASE_MS: {
    default: '30000',
    meaning: 'with DATABASE_URL: how long a pull lease lives without renewal',
    readBy: ['server'],
  },
  PUBLIC_URL_FACILITIES: {
    default: 'http://127.0.0.1:8081/',
    meaning: "where facilities' tree is served (the server or a CDN): its change feeds' links start with it",
    readBy: ['build', 'nightly'],
  },
  PUBLIC_URL_CARRIERS: {
    default: 'http://127.0.0.1:8082/',
    meaning: "where carriers' tree is served: its change feeds' links start with it",
    readBy: ['build', 'nightly'],
  },
  PUBLIC_URL_ECONOMY: {
    default: 'http://127.0.0.1:8083/',
    meaning: "where economy's tree is served: its change feeds' links start with it",
    readBy: ['build', 'nightly'],
  },
  SHOW_RESTRICTED_PERCENTILES: {
    default: 'false',
    meaning: 'at build time: publish the Crash Indicator and HM percentiles',
    readBy: ['build', 'nightly'],
  },
  ONTARIO_GHG_URL: {
    default:
      'https://data.ontario.ca/dataset/greenhouse-gas-emissions-reporting-by-facility/resource/0996bfd9-ed27-4f78-8ed1-9e024185f10a/download',
    meaning: 'nightly: the Ontario GHG registry CSV (several separated by spaces)',
    readBy: ['nightly'],
  },
  GHGRP_BY_GAS_URL: {
    default:
      'https://data-donnees.az.ec.gc.ca/data/substances/monitor/greenhouse-gas-reporting-program-ghgrp-facility-greenhouse-gas-ghg-data/PDGES-GHGRP-GHGEmissionsGES-2004-Present.csv',
    meaning: 'nightly: the federal GHGRP emissions-by-gas file',
    readBy: ['nightly'],
  },
  GHGRP_INDICATOR_URL: {
    default:
      'https://indicators-map.canada.ca/CSVs/en/Greenhouse%20gas%20emissions%20from%20large%20facilities%20-%202024.csv',
    meaning: 'nightly: the ECCC large-facilities indicator table',
    readBy: ['nightly'],
  },
  EWRB_URL: {
    default:
      'https://data.ontario.ca/dataset/energy-and-water-usage-of-large-buildings-in-ontario/resource/aeb34aef-5029-4b65-8093-c86ad682b037/download',
    meaning: 'nightly: the Ontario EWRB building data',
    readBy: ['nightly'],
  },
  FMCSA_CENSUS_URL: {
    default: `${FMCSA}/kjg3-diqy/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: SMS Input – Motor Carrier Census',
    readBy: ['nightly'],
  },
  FMCSA_INSPECTION_URL: {
    default: `${FMCSA}/rbkj-cgst/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: SMS Input – Inspection',
    readBy: ['nightly'],
  },
  FMCSA_VIOLATION_URL: {
    default: `${FMCSA}/8mt8-2mdr/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: SMS Input – Violation',
    readBy: ['nightly'],
  },
  FMCSA_CRASH_URL: {
    default: `${FMCSA}/4wxs-vbns/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: SMS Input – Crash',
    readBy: ['nightly'],
  },
  FMCSA_LI_CARRIER_URL: {
    default: `${FMCSA}/6eyk-hxee/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: L&I Carrier (authority and required insurance per docket)',
    readBy: ['nightly'],
  },
  FMCSA_AUTHORITY_HISTORY_URL: {
    default: `${FMCSA}/9mw4-x3tu/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: L&I Authority History',
    readBy: ['nightly'],
  },
  FMCSA_INSURANCE_URL: {
    default: `${FMCSA}/qh9u-swkp/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: L&I Active and Pending Insurance',
    readBy: ['nightly'],
  },
  FMCSA_INSURANCE_HISTORY_URL: {
    default: `${FMCSA}/6sqe-dvqs/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: L&I Insurance History',
    readBy: ['nightly'],
  },
  FMCSA_REVOCATION_URL: {
    default: `${FMCSA}/sa6p-acbp/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: L&I Revocation',
    readBy: ['nightly'],
  },
  FMCSA_OOS_ORDERS_URL: {
    default: `${FMCSA}/p2mt-9ige/rows.csv?accessType=DOWNLOAD`,
    meaning: 'nightly: FMCSA Out of Service Orders',
    readBy: ['nightly'],
  },
  NIGHTLY_TIMEOUT_MS: {
    default: '60000',
    meaning: 'nightly: an attempt that receives nothing this long is abandoned',
    readBy: ['nightly'],
  },
  NIGHTLY_RETRIES: { default: '3', meaning: 'nightly: attempts after the first', readBy: ['nightly'] },
  NIGHTLY_RETRY_DELAY_MS: {
    default: '5000',
    meaning: 'nightly: delay before the first retry, doubled for each next one',
    readBy: ['nightly'],
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

/** The raw value of a registered setting, as the environment gives it (undefined when unset). */
export function readSetting(env: Env, name: SettingName): string | undefined {
  return env[name];
}

/** The value, or the registry's default when unset or empty. */
export function settingOrDefault(env: Env, name: SettingName): string {
  return readSetting(env, name) || (SETTINGS[name].default ?? '');
}

/** The registry's default of a whole-number setting. */
export function defaultNumber(name: SettingName): number {
  return Number(SETTINGS[name].default);
}

/** A whole-number setting with the registry's default (wholeNumberSetting's checks and messages). */
export function numberSetting(env: Env, name: SettingName, min: number, what: string, max?: number): number {
  return wholeNumberSetting(name, readSetting(env, name), defaultNumber(name), min, what, max);
}

/** `NAME (default), …` of the settings `reader` reads, wrapped for a --help text. */
export function settingsUsage(reader: SettingReader, width = 110): string {
  const items = Object.entries(SETTINGS as Record<string, SettingSpec>)
    .filter(([, s]) => s.readBy.includes(reader))
    .map(([name, s]) => (s.default === undefined || s.default.includes('/') ? name : `${name} (${s.default})`));
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line === '' ? item : `${line}, ${item}`;
    if (next.length > width && line !== '') {
      lines.push(`${line},`);
      line = item;
    } else line = next;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}
