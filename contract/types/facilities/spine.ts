// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Ascending by year, every year either program reported; a missing value is null. Provincial values exclude CO2 from biomass.
 */
export type Series = {
  year: number;
  ontario: number | null;
  federal: number | null;
}[];

/**
 * GET /api/v1/spine: every facility, ascending by spine_id, without flags and delta.
 */
export interface Spine {
  count: number;
  facilities: {
    spine_id: string;
    /**
     * anchored: normalized name and city equal between programs in some year.
     */
    tier: "anchored" | "unmatched";
    program: "both" | "ontario_only" | "federal_only";
    name: string;
    city: string | null;
    names: Names;
    source_ids: SourceIds;
    naics: string | null;
    totals: Totals;
    series: Series;
    /**
     * Where the facility is, in decimal degrees (WGS 84, as the federal files give them): from the newest federal row with usable coordinates (the emissions-by-gas file before the indicator table in the same year); null where no input locates it (linear facilities such as pipelines have none, the indicator table writes 0, 0 for unknown). Coordinates that are not numbers, out of range or outside Ontario are left out and counted in the build's warnings.
     */
    coordinates: null | {
      latitude: number;
      longitude: number;
      /**
       * The program whose input gave them; Ontario's registry files carry no coordinates today.
       */
      source: "federal" | "ontario";
    };
    identifiers: Identifiers;
    by_gas: ByGas;
    /**
     * Large-building context (Ontario EWRB) for the facility's city; null where the city has no EWRB buildings. year is the data year (the year before the data-quality check).
     */
    buildings: null | {
      year: number | null;
      city: string;
      count: number;
      median_site_eui_gj_m2: number | null;
      median_ghg_intensity_kg_m2: number | null;
      median_water_m3_m2: number | null;
    };
  }[];
}
export interface Names {
  /**
   * Every name the program used, newest first.
   */
  ontario: string[];
  federal: string[];
}
export interface SourceIds {
  ontario: string[];
  federal: string[];
}
/**
 * Comparison-year totals in t CO2e. ontario is the registry total minus CO2 from biomass (the federal basis); federal is the GHGRP total.
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
/**
 * What the federal emissions-by-gas file says of the facility and who reports it, each from the newest federal row that gives it (a facility can change hands: the company is the latest reporter), null where no federal row gives it (an Ontario-only facility has every one null).
 */
export interface Identifiers {
  /**
   * The facility's National Pollutant Release Inventory id (`Facility NPRI ID`); null where the file writes 0 or nothing.
   */
  npri_id: string | null;
  /**
   * The reporting company's Canada Revenue Agency business number, as the file writes it (`Reporting Company Business Number`).
   */
  business_number: string | null;
  /**
   * The reporting company's legal name (`Reporting Company Legal Name`).
   */
  company: string | null;
}
/**
 * Emissions by gas, per program and year, in t CO2e as each program computes it (Ontario AR4 global-warming potentials, federal AR5 for recent years): every year in which the program's inputs report a figure for some gas, ascending; several ids of one program are summed per year. Ontario's co2 is its CO2 from non-biomass (CO2 from biomass is left out, as both programs' totals compared here leave it out); its NF3 column has no place here. The federal large-facilities indicator table has no gases, so years it alone reports are absent.
 */
export interface ByGas {
  federal: Gases[];
  ontario: Gases[];
}
/**
 * One program's emissions by gas in one year, t CO2e; null where the input does not report the gas (an empty field), 0 where it reports none.
 */
export interface Gases {
  year: number;
  /**
   * Carbon dioxide (Ontario: from non-biomass sources).
   */
  co2: number | null;
  /**
   * Methane.
   */
  ch4: number | null;
  /**
   * Nitrous oxide.
   */
  n2o: number | null;
  /**
   * Hydrofluorocarbons, all species.
   */
  hfc: number | null;
  /**
   * Perfluorocarbons, all species.
   */
  pfc: number | null;
  /**
   * Sulphur hexafluoride.
   */
  sf6: number | null;
}
