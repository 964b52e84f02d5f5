// The four upstream files the facilities build reads, recognized by their header whatever their file name
// (docs/contracts/common.md, "Builds"). Column names are the publishers' own; see
// shared/data/facilities/README.md for each layout.
import type { ColumnSpec } from '../core/csv.ts';
import {
  OGL_CANADA,
  OGL_CANADA_ATTRIBUTION,
  OGL_ONTARIO,
  OGL_ONTARIO_ATTRIBUTION,
  type Provenance,
} from '../../contract/core/licences.ts';

export type FacilitiesInputKind = 'ontario_ghg' | 'ghgrp_by_gas' | 'ghgrp_indicator' | 'ewrb';

const req = (key: string, ...names: string[]): ColumnSpec => ({ key, names, required: true });
const opt = (key: string, ...names: string[]): ColumnSpec => ({ key, names, required: false });

/** Ontario GHG registry (O. Reg. 452/09, later 390/18), one row per facility-year. */
export const ONTARIO_COLUMNS: ColumnSpec[] = [
  req('year', 'Year'),
  req('id', 'Ontario GHG ID'),
  opt('owner', 'Facility Owner'),
  req('name', 'Facility Name'),
  req('city', 'Facility City'),
  opt('naics', 'Facility Primary NAICS Code'),
  req('co2', 'Carbon dioxide (CO2) from non-biomass in CO2e (t)'),
  req('biomass', 'Carbon dioxide (CO2) from biomass in CO2e (t)'),
  req('ch4', 'Methane (CH4) in CO2e (t)'),
  opt('n2o', 'Nitrous oxide (N2O) in CO2e (t)'),
  opt('sf6', 'Sulphur hexafluoride (SF6) in CO2e (t)'),
  opt('hfc', 'Hydrofluorocarbons (HFCs) in CO2e (t)'),
  opt('pfc', 'Perfluorocarbons (PFCs) in CO2e (t)'),
  req('total', 'Total CO2e from all sources in CO2e (t)'),
  opt('reporting', 'Reporting Amount in CO2e (t)'),
];

/**
 * Federal GHGRP "emissions by gas" (PDGES-GHGRP-GHGEmissionsGES-2004-Present.csv). Bilingual headers are
 * matched on their English part, so the 2004–2024 edition's renamed total column still matches.
 */
export const GHGRP_BY_GAS_COLUMNS: ColumnSpec[] = [
  req('id', 'GHGRP ID No.'),
  req('year', 'Reference Year'),
  req('name', 'Facility Name'),
  req('city', 'Facility City or District or Municipality'),
  req('province', 'Facility Province or Territory'),
  opt('latitude', 'Latitude'),
  opt('longitude', 'Longitude'),
  opt('naics', 'Facility NAICS Code'),
  opt('npri', 'Facility NPRI ID'),
  opt('company', 'Reporting Company Legal Name'),
  opt('business_number', 'Reporting Company Business Number'),
  // CO2 has no CO2e column (its CO2e is its tonnage); the other gases are read as CO2e, and CH4, N2O and SF6
  // also as tonnes: their ratio is the global-warming potential the program applied (delta_parts).
  opt('co2', 'CO2 (tonnes)'),
  opt('ch4_tonnes', 'CH4 (tonnes)'),
  opt('n2o_tonnes', 'N2O (tonnes)'),
  opt('sf6_tonnes', 'SF6 (tonnes)'),
  req('ch4', 'CH4 (tonnes CO2e / tonnes éq. CO2)', 'CH4 (tonnes CO2e)'),
  opt('n2o', 'N2O (tonnes CO2e)'),
  opt('hfc', 'HFC Total (tonnes CO2e)'),
  opt('pfc', 'PFC Total (tonnes CO2e)'),
  opt('sf6', 'SF6 (tonnes CO2e)'),
  req('total', 'Total Emissions (tonnes CO2e)'),
];

/** ECCC indicator table "Greenhouse gas emissions from large facilities" (one reference year, kt). */
export const GHGRP_INDICATOR_COLUMNS: ColumnSpec[] = [
  req('id', 'Facility ID'),
  req('name', 'Facility name'),
  req('city', 'City'),
  req('province', 'Province'),
  opt('latitude', 'Latitude'),
  opt('longitude', 'Longitude'),
  req('total', 'Total emissions'),
  req('units', 'Units'),
  req('year', 'Report year'),
  opt('naicsLink', 'Industry classification link'),
];

/** Ontario Energy and Water Reporting and Benchmarking (EWRB, O. Reg. 506/18), one row per building. */
export const EWRB_COLUMNS: ColumnSpec[] = [
  req('id', 'EWRB_ID'),
  req('city', 'City'),
  opt('fsa', 'Postal_Code'),
  req('siteEui', 'Site_EUI1'),
  req('ghgIntensity', 'GHG_Emiss_Int1'),
  req('water', 'All_Water_Int1'),
  opt('checkDate', 'Data_Qual_Date'),
];

export const INPUTS: Record<
  FacilitiesInputKind,
  { columns: ColumnSpec[]; required: boolean; url: string; label: string }
> = {
  ontario_ghg: {
    columns: ONTARIO_COLUMNS,
    required: true,
    label: 'Ontario GHG registry',
    url: 'https://data.ontario.ca/dataset/greenhouse-gas-emissions-reporting-by-facility',
  },
  ghgrp_by_gas: {
    columns: GHGRP_BY_GAS_COLUMNS,
    required: false,
    label: 'Federal GHGRP emissions by gas',
    url: 'https://open.canada.ca/data/en/dataset/a8ba14b7-7f23-462a-bdbb-83b0ef629823',
  },
  ghgrp_indicator: {
    columns: GHGRP_INDICATOR_COLUMNS,
    required: false,
    label: 'ECCC large facilities indicator table',
    url: 'https://www.canada.ca/en/environment-climate-change/services/environmental-indicators/greenhouse-gas-emissions/large-facilities.html',
  },
  ewrb: {
    columns: EWRB_COLUMNS,
    required: false,
    label: 'Ontario EWRB building data',
    url: 'https://data.ontario.ca/dataset/energy-and-water-usage-of-large-buildings-in-ontario',
  },
};

/** Order of recognition: the most specific header first. */
export const KINDS: FacilitiesInputKind[] = ['ghgrp_by_gas', 'ontario_ghg', 'ghgrp_indicator', 'ewrb'];

/** Who publishes each input and under what licence (contract/core/licences.ts; sources in docs/data-sources.md). */
export const PROVENANCE: Record<FacilitiesInputKind, Provenance> = {
  ontario_ghg: {
    title: 'Greenhouse gas emissions reporting by facility',
    publisher: 'Ontario Ministry of the Environment, Conservation and Parks',
    licence: OGL_ONTARIO,
    attribution: OGL_ONTARIO_ATTRIBUTION,
  },
  ghgrp_by_gas: {
    title: 'Greenhouse Gas Reporting Program (GHGRP) – Facility Greenhouse Gas (GHG) Data',
    publisher: 'Environment and Climate Change Canada',
    licence: OGL_CANADA,
    attribution: OGL_CANADA_ATTRIBUTION,
  },
  ghgrp_indicator: {
    title: 'Canadian Environmental Sustainability Indicators: Greenhouse gas emissions from large facilities',
    publisher: 'Environment and Climate Change Canada',
    licence: OGL_CANADA,
    attribution: OGL_CANADA_ATTRIBUTION,
  },
  ewrb: {
    title: 'Energy and water usage of large buildings in Ontario (EWRB)',
    publisher: 'Government of Ontario',
    licence: OGL_ONTARIO,
    attribution: OGL_ONTARIO_ATTRIBUTION,
  },
};
