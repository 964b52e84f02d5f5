// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/v1/spine.geojson (RFC 7946, application/geo+json): every facility with known coordinates as a Point feature, ascending by spine_id; a feature's id is its spine_id and its properties are its row of spine.csv (schema facilities/spine-row), with numbers and nulls as JSON has them.
 */
export interface SpineAsGeoJSON {
  type: "FeatureCollection";
  features: {
    type: "Feature";
    id: string;
    geometry: {
      type: "Point";
      /**
       * [longitude, latitude] in decimal degrees (RFC 7946 §3.1.1: longitude first).
       */
      coordinates: number[];
    };
    properties: SpineRow;
  }[];
}
/**
 * One facility as the downloads give it: a record of GET /api/v1/spine.csv and of GET /api/v1/search?format=csv, with the columns in the order of required, and the properties of its feature in GET /api/v1/spine.geojson. In CSV a null is an empty field, and a name or city beginning with =, +, -, @, a tab or a CR gets a leading apostrophe, so a spreadsheet shows it instead of running it as a formula (the JSON and GeoJSON keep it as filed).
 */
export interface SpineRow {
  spine_id: string;
  /**
   * The record's name.
   */
  name: string;
  /**
   * The record's city.
   */
  city: string | null;
  /**
   * anchored: normalized name and city equal between programs in some year.
   */
  tier: "anchored" | "unmatched";
  program: "both" | "ontario_only" | "federal_only";
  naics: string | null;
  /**
   * The comparison year (totals.year).
   */
  year: number;
  /**
   * totals.ontario: the provincial total of the comparison year minus CO2 from biomass, t CO2e.
   */
  ontario_total: number | null;
  /**
   * totals.federal: the GHGRP total of the comparison year, t CO2e.
   */
  federal_total: number | null;
  /**
   * delta.tonnes: ontario_total − federal_total; null unless both exist.
   */
  delta_tonnes: number | null;
  /**
   * delta.pct: delta_tonnes / federal_total × 100, rounded to 2 decimals; null unless both exist.
   */
  delta_pct: number | null;
  /**
   * What search ranks by: federal_total where present, else ontario_total.
   */
  emissions: number | null;
  /**
   * The record's coordinates.latitude (decimal degrees, WGS 84); null where nothing locates the facility.
   */
  latitude: number | null;
  /**
   * The record's coordinates.longitude; null where nothing locates the facility.
   */
  longitude: number | null;
}
