// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "spine_id".
 */
export type SpineId = string;
/**
 * Where the facility is, in decimal degrees (WGS 84, as the federal files give them): from the newest federal row with usable coordinates (the emissions-by-gas file before the indicator table in the same year); null where no input locates it (linear facilities such as pipelines have none, the indicator table writes 0, 0 for unknown). Coordinates that are not numbers, out of range or outside Ontario are left out and counted in the build's warnings.
 *
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "coordinates".
 */
export type Coordinates = null | {
  latitude: number;
  longitude: number;
  /**
   * The program whose input gave them; Ontario's registry files carry no coordinates today.
   */
  source: "federal" | "ontario";
};
/**
 * Large-building context (Ontario EWRB) for the facility's city; null where the city has no EWRB buildings. year is the data year (the year before the data-quality check).
 *
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "buildings".
 */
export type Buildings = null | {
  year: number | null;
  city: string;
  count: number;
  median_site_eui_gj_m2: number | null;
  median_ghg_intensity_kg_m2: number | null;
  median_water_m3_m2: number | null;
};

/**
 * GET /api/v1/facility/{id}: one canonical facility linking Ontario GHG registry ids and federal GHGRP ids.
 */
export interface FacilityRecord {
  spine_id: SpineId;
  /**
   * anchored: normalized name and city equal between programs in some year.
   */
  tier: "anchored" | "unmatched";
  program: "both" | "ontario_only" | "federal_only";
  /**
   * Newest Ontario name, else newest federal name.
   */
  name: string;
  /**
   * Newest spelling with lower-case letters, else the newest in title case.
   */
  city: string | null;
  names: {
    /**
     * Every name the program used, newest first.
     */
    ontario: string[];
    federal: string[];
  };
  source_ids: {
    ontario: string[];
    federal: string[];
  };
  naics: string | null;
  totals: Totals;
  /**
   * Provincial minus federal for the comparison year; null unless both totals exist.
   */
  delta: null | {
    year: number;
    tonnes: number;
    /**
     * tonnes / federal × 100, rounded to 2 decimals.
     */
    pct: number;
  };
  /**
   * The comparison year's provincial − federal difference (delta.tonnes) split into what the inputs explain and the rest, in t CO2e; null where delta is null. The four parts always add up to tonnes (to the cent). reasons shows the figures each explained part comes from.
   */
  delta_parts: null | {
    year: number;
    /**
     * delta.tonnes: provincial (biomass CO2 subtracted) minus federal.
     */
    tonnes: number;
    /**
     * CO2 from biomass the provincial figure still counts and the federal total leaves out: the provincial total less its biomass column, against Ontario's own Reporting Amount (its total without biomass CO2); 0 where they agree to within the 1 t of Ontario's whole-tonne rounding.
     */
    biomass_co2: number;
    /**
     * Gases one program reports and the other does not (empty or 0) that year: Ontario's figure counts +, the federal one −. Compared only where every federal row behind the year's total has the gas split (the indicator table has none; its row merged into an emissions-by-gas row of the same year is not behind the total).
     */
    one_program_gases: number;
    /**
     * What the programs' factors make of the gases both report: Ontario prices CH4, N2O and SF6 at AR4 (25, 298, 22,800); the federal file prints each gas in tonnes and CO2e, and their ratio is its factor (AR5: 28, 265, 23,500). Ontario's figure less the same tonnage at the federal factor, summed.
     */
    global_warming_potentials: number;
    /**
     * The rest: tonnes less the three parts (different measured tonnages, HFC and PFC mixes, rounding).
     */
    unexplained: number;
    /**
     * Each explained part that is not 0, with the figures it comes from.
     */
    reasons: string[];
  };
  /**
   * Ascending by year, every year either program reported; a missing value is null. Provincial values exclude CO2 from biomass.
   */
  series: {
    year: number;
    ontario: number | null;
    federal: number | null;
  }[];
  coordinates: Coordinates;
  /**
   * What the federal emissions-by-gas file says of the facility and who reports it, each from the newest federal row that gives it (a facility can change hands: the company is the latest reporter), null where no federal row gives it (an Ontario-only facility has every one null).
   */
  identifiers: {
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
  };
  /**
   * Emissions by gas, per program and year, in t CO2e as each program computes it (Ontario AR4 global-warming potentials, federal AR5 for recent years): every year in which the program's inputs report a figure for some gas, ascending; several ids of one program are summed per year. Ontario's co2 is its CO2 from non-biomass (CO2 from biomass is left out, as both programs' totals compared here leave it out); its NF3 column has no place here. The federal large-facilities indicator table has no gases, so years it alone reports are absent.
   */
  by_gas: {
    federal: Gases[];
    ontario: Gases[];
  };
  buildings: Buildings;
  flags: {
    /**
     * CH4 is at least 10 % of CO2e (biomass CO2 excluded) in a program's latest year with a methane figure, or at least 25,000 t CO2e.
     */
    methane: boolean;
    /**
     * A year-over-year change of more than 50 % in either program, or a comparison-year disagreement of more than 10 %.
     */
    anomaly: boolean;
    /**
     * Each rule that fired, with its figures.
     */
    reasons: string[];
  };
}
/**
 * Comparison-year totals in t CO2e. ontario is the registry total minus CO2 from biomass (the federal basis); federal is the GHGRP total.
 *
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "totals".
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
/**
 * One program's emissions by gas in one year, t CO2e; null where the input does not report the gas (an empty field), 0 where it reports none.
 *
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "gases".
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
