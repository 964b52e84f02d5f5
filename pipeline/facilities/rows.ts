// Typed rows of the facilities build and the data-quality issues normalizers return instead of throwing.

export interface OntarioRow {
  file: string;
  record: number;
  year: number;
  id: string;
  name: string;
  city: string | null;
  naics: string | null;
  /** CO2 from non-biomass sources; this and the other gases in t CO2e (AR4), null where the field is empty. */
  co2: number | null;
  biomass: number | null;
  ch4: number | null;
  n2o: number | null;
  hfc: number | null;
  pfc: number | null;
  sf6: number | null;
  /** Total CO2e from all sources, biomass CO2 included (as the registry publishes it). */
  total: number | null;
  reporting: number | null;
}

export interface FederalRow {
  file: string;
  record: number;
  source: 'by_gas' | 'indicator';
  /** `G` + digits, the GHGRP id as the emissions-by-gas file writes it. */
  id: string;
  year: number;
  name: string;
  city: string | null;
  province: string;
  naics: string | null;
  /** Where the facility is, when the row gives usable coordinates (both files may). */
  coordinates: LatLon | null;
  /** NPRI id, reporting company's legal name and business number (emissions-by-gas file only). */
  npri_id: string | null;
  company: string | null;
  business_number: string | null;
  /** CO2 in tonnes, the other gases in t CO2e (emissions-by-gas file only; null in the indicator table). */
  co2: number | null;
  ch4: number | null;
  n2o: number | null;
  /** HFC and PFC totals over their species. */
  hfc: number | null;
  pfc: number | null;
  sf6: number | null;
  /** CH4, N2O and SF6 in tonnes of the gas (emissions-by-gas file only): with the CO2e, the GWP applied. */
  ch4_tonnes: number | null;
  n2o_tonnes: number | null;
  sf6_tonnes: number | null;
  /** Total in t CO2e, biomass CO2 excluded. */
  total: number | null;
}

export interface LatLon {
  latitude: number;
  longitude: number;
}

export interface BuildingRow {
  file: string;
  record: number;
  id: string;
  city: string;
  siteEui: number | null;
  ghgIntensity: number | null;
  water: number | null;
  checkYear: number | null;
}

// Data-quality issues are the core's, shared by every service's normalizers.
export type { Normalized, RowIssue } from '../core/issues.ts';
