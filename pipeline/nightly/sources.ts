// The upstream files the nightly job downloads, one environment variable each, with the publishers' download
// addresses as defaults. A variable set to the empty string skips that file (the build then runs without it,
// and fails if it was required). ONTARIO_GHG_URL may list several addresses separated by spaces: Ontario has
// published its registry as more than one file (one per range of years), and the build reads them all.
import { CARRIER_INPUTS } from '../carriers/inputs.ts';
import { type Env, readSetting, SETTINGS, type SettingName } from '../../contract/core/settings-registry.ts';

export interface UpstreamFile {
  /** The variable naming its address. */
  env: string;
  /** File name in the service's download folder (a zip is unpacked into a folder of the same stem). */
  name: string;
  label: string;
  url: string;
}

export interface UpstreamSource {
  env: SettingName;
  /** File name stem; `ontario_ghg` → `ontario_ghg.csv`, `ontario_ghg-2.csv`, … */
  stem: string;
  label: string;
  defaultUrl: string;
  /** The variable may hold several addresses separated by white space. */
  list?: boolean;
}

/**
 * Facilities. Ontario's registry and EWRB are data.ontario.ca (CKAN) resources, whose `/download` address
 * answers the current file of the resource; the federal emissions-by-gas file is ECCC's data mart path
 * (shared/data/facilities/README.md §3); the indicator table's name carries its edition year, so
 * GHGRP_INDICATOR_URL needs a new value when ECCC publishes the next one.
 */
const FACILITIES: readonly UpstreamSource[] = [
  {
    env: 'ONTARIO_GHG_URL',
    stem: 'ontario_ghg',
    label: 'Ontario GHG registry',
    defaultUrl: SETTINGS.ONTARIO_GHG_URL.default,
    list: true,
  },
  {
    env: 'GHGRP_BY_GAS_URL',
    stem: 'ghgrp_by_gas',
    label: 'Federal GHGRP emissions by gas',
    defaultUrl: SETTINGS.GHGRP_BY_GAS_URL.default,
  },
  {
    env: 'GHGRP_INDICATOR_URL',
    stem: 'ghgrp_indicator',
    label: 'ECCC large facilities indicator table',
    defaultUrl: SETTINGS.GHGRP_INDICATOR_URL.default,
  },
  {
    env: 'EWRB_URL',
    stem: 'ewrb',
    label: 'Ontario EWRB building data',
    defaultUrl: SETTINGS.EWRB_URL.default,
  },
];

/**
 * Carriers: the data.transportation.gov exports of the monthly SMS input files, the addresses the build's
 * manifest already cites (pipeline/carriers/inputs.ts). FMCSA's own download page serves the same files as
 * zip archives under monthly names (FMCSA_CENSUS1_2026Oct.zip); point a variable at one and it is unpacked.
 */
const CARRIERS: readonly UpstreamSource[] = [
  {
    env: 'FMCSA_CENSUS_URL',
    stem: 'census',
    label: CARRIER_INPUTS.census.label,
    defaultUrl: CARRIER_INPUTS.census.url,
  },
  {
    env: 'FMCSA_INSPECTION_URL',
    stem: 'inspection',
    label: CARRIER_INPUTS.inspection.label,
    defaultUrl: CARRIER_INPUTS.inspection.url,
  },
  {
    env: 'FMCSA_VIOLATION_URL',
    stem: 'violation',
    label: CARRIER_INPUTS.violation.label,
    defaultUrl: CARRIER_INPUTS.violation.url,
  },
  { env: 'FMCSA_CRASH_URL', stem: 'crash', label: CARRIER_INPUTS.crash.label, defaultUrl: CARRIER_INPUTS.crash.url },
  // The registry files: authority, insurance, revocations and out-of-service orders.
  ...(
    [
      ['FMCSA_LI_CARRIER_URL', 'li_carrier'],
      ['FMCSA_AUTHORITY_HISTORY_URL', 'authority_history'],
      ['FMCSA_INSURANCE_URL', 'insurance'],
      ['FMCSA_INSURANCE_HISTORY_URL', 'insurance_history'],
      ['FMCSA_REVOCATION_URL', 'revocation'],
      ['FMCSA_OOS_ORDERS_URL', 'oos_order'],
    ] as const
  ).map(([env, kind]) => ({
    env,
    stem: kind.replaceAll('_', '-'),
    label: CARRIER_INPUTS[kind].label,
    defaultUrl: CARRIER_INPUTS[kind].url,
  })),
];

export const NIGHTLY_SOURCES: Readonly<Record<string, readonly UpstreamSource[]>> = {
  facilities: FACILITIES,
  carriers: CARRIERS,
  // Economy downloads no files: its registry is reviewed data in the repository (see economy-check.ts).
  economy: [],
};

/** The files to fetch for a service under `env`: defaults, overrides, lists; empty variables skip. */
export function toUpstreamFiles(service: string, env: Env): { files: UpstreamFile[]; skipped: string[] } {
  const files: UpstreamFile[] = [];
  const skipped: string[] = [];
  for (const s of NIGHTLY_SOURCES[service] ?? []) {
    const value = readSetting(env, s.env) ?? s.defaultUrl;
    const urls = (s.list ? value.split(/\s+/) : [value.trim()]).filter((u) => u !== '');
    if (urls.length === 0) skipped.push(s.env);
    urls.forEach((url, i) => {
      files.push({ env: s.env, name: `${s.stem}${i === 0 ? '' : `-${i + 1}`}.csv`, label: s.label, url });
    });
  }
  return { files, skipped };
}
