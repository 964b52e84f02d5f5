// Typed rows of the facilities build and the data-quality issues normalizers return instead of throwing.

export interface OntarioRow {
  file: string;
  record: number;
  year: number;
  id: string;
  name: string;
  city: string | null;
  naics: string | null;
  co2: number | null;
  biomass: number | null;
  ch4: number | null;
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
  /** Methane in t CO2e (emissions-by-gas file only). */
  ch4: number | null;
  /** Total in t CO2e, biomass CO2 excluded. */
  total: number | null;
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
