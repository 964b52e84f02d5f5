/**
 * Demo inputs for the facilities build, in the exact upstream file formats described in
 * shared/data/facilities/README.md (§1 Ontario registry, §2 EWRB, §3.2–3.3 GHGRP emissions by gas, §3.4 ECCC
 * indicator table): same headers, encodings, BOMs, line ends, quoting and number formats. Every facility, company,
 * person and figure is invented (real Ontario place names only); nothing is copied from an upstream file.
 *
 * The data plant the cases the linking rule (shared/contracts/facilities.md, "Identity rules") and the flags must
 * handle, and report their ids in `facts`, so tests can check that a build finds each of them.
 *
 * Deterministic for a seed (STYLE.md practice 4): every draw comes from `createRng`, never the clock or Math.random.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRng, type Rng } from '../../contract/core/rng.ts';
import { foldAccents, maxSimilarity, normalizeCity, normalizeName, similarity } from '../facilities/normalize-names.ts';
import { toCsvLine } from './csv-text.ts';

export const DEFAULT_SEED = 20240101;

export const ONTARIO_FILE = 'ontario/GHG_Data_2010_2024_demo.csv';
export const BY_GAS_FILE = 'federal/PDGES-GHGRP-GHGEmissionsGES-2004-Present.csv';
export const INDICATOR_FILE = 'federal/Greenhouse gas emissions from large facilities.csv';
export const EWRB_FILE = 'ewrb/ewrb_raw_data.csv';

/** Paths written, relative to the demo folder. */
export const FACILITY_DEMO_FILES: readonly string[] = [ONTARIO_FILE, BY_GAS_FILE, INDICATOR_FILE, EWRB_FILE];

// ---------------------------------------------------------------------------------------------------------------
// Formats. Headers are the publishers' column names in order (README §1, §2, §3.2, §3.4).

/** README §1: 18 columns. */
const ONTARIO_COLUMNS = [
  'Year',
  'Ontario GHG ID',
  'Facility Owner',
  'Facility Name',
  'Facility City',
  'Facility Primary NAICS Code',
  'Carbon dioxide (CO2) from non-biomass in CO2e (t)',
  'Carbon dioxide (CO2) from biomass in CO2e (t)',
  'Methane (CH4) in CO2e (t)',
  'Nitrous oxide (N2O) in CO2e (t)',
  'Sulphur hexafluoride (SF6) in CO2e (t)',
  'Hydrofluorocarbons (HFCs) in CO2e (t)',
  'Perfluorocarbons (PFCs) in CO2e (t)',
  'Nitrogen Trifluoride (NF3) in CO2e (t)',
  'Total CO2e from all sources in CO2e (t)',
  'Reporting Amount in CO2e (t)',
  'Verification Amount in CO2e (t)',
  'Accredited Verification Body',
];

/** GHGRP species reported by gas, with AR5 global-warming potentials (README §3.3: CH4 ×28, N2O ×265, SF6 ×23,500). */
const HFC_SPECIES: readonly (readonly [string, number])[] = [
  ['HFC-23', 12400],
  ['HFC-32', 677],
  ['HFC-41', 116],
  ['HFC-43-10mee', 1650],
  ['HFC-125', 3170],
  ['HFC-134', 1120],
  ['HFC-134a', 1300],
  ['HFC-143', 328],
  ['HFC-143a', 4800],
  ['HFC-152a', 138],
  ['HFC-227ea', 3350],
  ['HFC-236fa', 8060],
  ['HFC-245ca', 716],
];
const PFC_SPECIES: readonly (readonly [string, number])[] = [
  ['CF4', 6630],
  ['C2F6', 11100],
  ['C3F8', 8900],
  ['C4F10', 9200],
  ['C4F8', 9540],
  ['C5F12', 8550],
  ['C6F14', 7910],
];
const AR5 = { ch4: 28, n2o: 265, sf6: 23500, hfc134a: 1300, cf4: 6630 } as const;
/** The Ontario registry's CO2e uses AR4 values (README §1: CH4 ×25, N2O ×298). */
const AR4 = { ch4: 25, n2o: 298, sf6: 22800, hfc134a: 1430, cf4: 7390 } as const;

const CO2E_FR = 'tonnes CO2e / tonnes éq. CO2';
const speciesColumns = (species: readonly (readonly [string, number])[]) =>
  species.flatMap(([s]) => [`${s} (tonnes)`, `${s} (${CO2E_FR})`]);

/** README §3.2: 81 bilingual columns. */
const BY_GAS_COLUMNS = [
  "GHGRP ID No. / No d'identification du PDGES",
  'Reference Year / Année de référence',
  "Facility Name / Nom de l'installation",
  "Facility Location / Emplacement de l'installation",
  "Facility City or District or Municipality / Ville ou District ou Municipalité de l'installation",
  "Facility Province or Territory / Province ou territoire de l'installation",
  "Facility Postal Code / Code postal de l'installation",
  'Latitude',
  'Longitude',
  "Facility NPRI ID / Numéro d'identification de l'INRP",
  "Facility NAICS Code / Code SCIAN de l'installation",
  "English Facility NAICS Code Description / Description du code SCIAN de l'installation en anglais",
  "French Facility NAICS Code Description / Description du code SCIAN de l'installation en français",
  'Reporting Company Legal Name / Dénomination sociale de la société déclarante',
  'Reporting Company Trade Name / Nom commercial de la société déclarante',
  "Reporting Company Business Number / Numéro d'entreprise de la société déclarante",
  'DUNS Number / Numéro DUNS',
  'Public Contact Name / Nom du responsable des renseignements au public',
  'Public Contact Position / Poste ou Titre du responsable des renseignements au public',
  'Public Contact Telephone / Numéro de téléphone du responsable des renseignements au public',
  'Public Contact Extension / Poste téléphonique du responsable des renseignements au public',
  'Public Contact Email / Adresse électronique du responsable des renseignements au public',
  'Public Contact Mailing Address / Adresse postale du responsable des renseignements au public',
  'Public Contact City or District or Municipality / Ville ou District ou Municipalité du responsable des renseignements au public',
  'Public Contact Province or Territory / Province ou Territoire du responsable des renseignements au public',
  // Sic: "renseignement" in the singular, as published.
  'Public Contact Postal Code / Code postal du responsable des renseignement au public',
  'CO2 (tonnes)',
  'CH4 (tonnes)',
  `CH4 (${CO2E_FR})`,
  'N2O (tonnes)',
  `N2O (${CO2E_FR})`,
  ...speciesColumns(HFC_SPECIES),
  `HFC Total (${CO2E_FR})`,
  ...speciesColumns(PFC_SPECIES),
  `PFC Total (${CO2E_FR})`,
  'SF6 (tonnes)',
  `SF6 (${CO2E_FR})`,
  'Total Emissions (tonnes CO2e) / Émissions totales (tonnes éq. CO2)',
  'GHGRP Quantification Requirements / Exigences de quantification du PDGES',
  "Emission Factors / Coefficients d'émission",
  'Engineering Estimates / Estimations techniques',
  'Mass Balance / Bilan massique',
  'Monitoring or Direct Measurement / Surveillance ou mesure directe',
];

/** README §3.4: 16 columns. */
const INDICATOR_COLUMNS = [
  'Facility ID',
  'Facility name',
  'Company name',
  'City',
  'Address',
  'Postal code',
  'Province',
  'Latitude',
  'Longitude',
  'Total emissions',
  'Units',
  'Report year',
  'Industry classification',
  'Industry classification link',
  'Facility information',
  'Facility details',
];

/** README §2: 31 columns. */
const EWRB_COLUMNS = [
  'EWRB_ID',
  'City',
  'Postal_Code',
  'PrimPropTypCalc',
  'PrimPropTypSelf',
  'Largest_PropTyp',
  'All_Prop_Types',
  'Thrd_Party_Cert',
  'WN_Sit_Elc_Int1',
  'WN_Sit_Elc_Int2',
  'WN_Sit_Gas_Int1',
  'WN_Sit_Gas_Int2',
  'WN_Sit_Gas_Int3',
  'All_Water_Int1',
  'All_Water_Int2',
  'Ind_Water_Int1',
  'Ind_Water_Int2',
  'Site_EUI1',
  'Site_EUI2',
  'Source_EUI1',
  'Source_EUI2',
  'WN_Site_EUI1',
  'WN_Site_EUI2',
  'WN_Source_EUI1',
  'WN_Source_EUI2',
  'GHG_Emiss_Int1',
  'GHG_Emiss_Int2',
  'Ener_Star_Score',
  'Ener_Star_Certs',
  'Data_Qual_Check',
  'Data_Qual_Date',
];

const KT_UNITS = 'kilotonnes of carbon dioxide equivalents (kt CO2 eq)';
const APPLICABLE = 'Applicable';
const NOT_APPLICABLE = 'Not applicable / Sans Objet';
const NOT_AVAILABLE = 'Not Available';
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const FIRST_ONTARIO_YEAR = 2010;
const FIRST_FEDERAL_YEAR = 2004;
const LAST_YEAR = 2024;
const INDICATOR_YEAR = 2023;
/** The year Ontario's planted renamed facility changes its name (old name 2010–2017, new one 2018–2024). */
const RENAME_YEAR = 2018;
/** The federal threshold fell from 50 kt to 10 kt in 2017 (README §3). */
const FEDERAL_THRESHOLD_DROP = 2017;

// ---------------------------------------------------------------------------------------------------------------
// Small helpers.

/** A number as the publishers print it: at most `digits` decimals, trailing zeros dropped, never an exponent. */
function toNumberText(n: number, digits = 6): string {
  const f = 10 ** digits;
  const v = Math.round(n * f) / f;
  return Object.is(v, -0) || v === 0 ? '0' : String(v);
}

const roundTo = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** Windows-1252 bytes for text restricted to ASCII and U+00A0–U+00FF, where cp1252 and Latin-1 agree. */
function toCp1252(text: string, file: string): Buffer {
  const bad = /[^\x00-\x7f\xa0-\xff]/.exec(text);
  if (bad)
    throw new Error(
      `${file}: character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} has no single-byte form here`,
    );
  return Buffer.from(text, 'latin1');
}

const stripAccents = foldAccents;

/** Spellings that vary by year: the last span starting at or before the year applies. */
type Spans<T> = readonly (readonly [number, T])[];
function at<T>(spans: Spans<T>, year: number): T {
  let out = spans[0]![1];
  for (const [from, v] of spans) if (from <= year) out = v;
  return out;
}
const years = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// ---------------------------------------------------------------------------------------------------------------
// Reference tables (invented facilities, real place names, NAICS 2017 titles).

interface Place {
  name: string;
  /** Forward sortation areas (first three postal-code characters) used for invented addresses. */
  fsa: readonly string[];
  lat: number;
  lon: number;
  /** Relative weight for facilities and for EWRB buildings. */
  facilities: number;
  buildings: number;
  /** Other spellings seen in the federal files and EWRB (same city after normalization). */
  federal?: readonly string[];
  ewrb?: readonly string[];
}

const ONTARIO_PLACES: readonly Place[] = [
  { name: 'Hamilton', fsa: ['L8L', 'L8H', 'L8E'], lat: 43.26, lon: -79.85, facilities: 6, buildings: 14 },
  {
    name: 'Toronto',
    fsa: ['M1B', 'M9W', 'M8Z', 'M4H'],
    lat: 43.7,
    lon: -79.42,
    facilities: 5,
    buildings: 60,
    ewrb: ['TORONTO', 'Toronto (Etobicoke)', 'Toronto (North York)'],
  },
  { name: 'Mississauga', fsa: ['L5J', 'L5T', 'L4W'], lat: 43.59, lon: -79.64, facilities: 4, buildings: 22 },
  { name: 'Brampton', fsa: ['L6T', 'L6S'], lat: 43.73, lon: -79.76, facilities: 3, buildings: 10 },
  { name: 'Oakville', fsa: ['L6J', 'L6K'], lat: 43.45, lon: -79.68, facilities: 2, buildings: 6 },
  { name: 'Burlington', fsa: ['L7L', 'L7M'], lat: 43.33, lon: -79.8, facilities: 1, buildings: 6 },
  { name: 'Sarnia', fsa: ['N7T', 'N7S'], lat: 42.97, lon: -82.4, facilities: 5, buildings: 4 },
  { name: 'Corunna', fsa: ['N0N'], lat: 42.89, lon: -82.44, facilities: 2, buildings: 0 },
  { name: 'Courtright', fsa: ['N0N'], lat: 42.82, lon: -82.47, facilities: 1, buildings: 0 },
  {
    name: 'Sault Ste. Marie',
    fsa: ['P6A', 'P6C'],
    lat: 46.52,
    lon: -84.33,
    facilities: 2,
    buildings: 5,
    federal: ['SAULT STE. MARIE', 'Sault Sainte Marie'],
    ewrb: ['SAULT STE MARIE', 'Sault Sainte Marie'],
  },
  { name: 'Thunder Bay', fsa: ['P7B', 'P7J'], lat: 48.38, lon: -89.25, facilities: 3, buildings: 6 },
  { name: 'Sudbury', fsa: ['P3A', 'P3E'], lat: 46.49, lon: -80.99, facilities: 2, buildings: 6 },
  { name: 'Timmins', fsa: ['P4N'], lat: 48.48, lon: -81.33, facilities: 2, buildings: 2 },
  { name: 'Kingston', fsa: ['K7K', 'K7M'], lat: 44.23, lon: -76.49, facilities: 2, buildings: 7 },
  { name: 'Bath', fsa: ['K0H'], lat: 44.18, lon: -76.77, facilities: 1, buildings: 0 },
  { name: 'Belleville', fsa: ['K8N', 'K8P'], lat: 44.16, lon: -77.38, facilities: 2, buildings: 3 },
  { name: 'Picton', fsa: ['K0K'], lat: 44.0, lon: -77.14, facilities: 1, buildings: 0 },
  { name: 'Windsor', fsa: ['N9A', 'N8W', 'N9C'], lat: 42.31, lon: -83.04, facilities: 4, buildings: 9 },
  { name: 'Leamington', fsa: ['N8H'], lat: 42.05, lon: -82.6, facilities: 3, buildings: 1 },
  { name: 'Kingsville', fsa: ['N9Y'], lat: 42.04, lon: -82.74, facilities: 2, buildings: 0 },
  { name: 'Chatham', fsa: ['N7M', 'N7L'], lat: 42.4, lon: -82.19, facilities: 1, buildings: 2 },
  { name: 'London', fsa: ['N6A', 'N5V', 'N6E'], lat: 42.98, lon: -81.25, facilities: 3, buildings: 14 },
  { name: 'Woodstock', fsa: ['N4S'], lat: 43.13, lon: -80.75, facilities: 1, buildings: 2 },
  { name: 'Ingersoll', fsa: ['N5C'], lat: 43.04, lon: -80.88, facilities: 1, buildings: 0 },
  { name: 'St. Marys', fsa: ['N4X'], lat: 43.26, lon: -81.14, facilities: 1, buildings: 1, federal: ['Saint Marys'] },
  { name: 'Cambridge', fsa: ['N1R', 'N3H'], lat: 43.36, lon: -80.31, facilities: 2, buildings: 4 },
  { name: 'Kitchener', fsa: ['N2G', 'N2R'], lat: 43.45, lon: -80.49, facilities: 2, buildings: 7 },
  { name: 'Guelph', fsa: ['N1H', 'N1K'], lat: 43.55, lon: -80.25, facilities: 2, buildings: 5 },
  { name: 'Brantford', fsa: ['N3T', 'N3S'], lat: 43.14, lon: -80.26, facilities: 1, buildings: 3 },
  { name: 'Nanticoke', fsa: ['N0A'], lat: 42.8, lon: -80.07, facilities: 2, buildings: 0 },
  {
    name: 'St. Catharines',
    fsa: ['L2R', 'L2M'],
    lat: 43.16,
    lon: -79.24,
    facilities: 1,
    buildings: 5,
    federal: ['Saint Catharines', 'ST. CATHARINES'],
    ewrb: ['Saint Catharines', 'ST CATHARINES'],
  },
  { name: 'Niagara Falls', fsa: ['L2E', 'L2G'], lat: 43.09, lon: -79.08, facilities: 1, buildings: 3 },
  { name: 'Welland', fsa: ['L3B'], lat: 42.99, lon: -79.25, facilities: 1, buildings: 2 },
  { name: 'Port Colborne', fsa: ['L3K'], lat: 42.89, lon: -79.25, facilities: 1, buildings: 0 },
  { name: 'Oshawa', fsa: ['L1H', 'L1J'], lat: 43.9, lon: -78.86, facilities: 2, buildings: 4 },
  { name: 'Whitby', fsa: ['L1N'], lat: 43.88, lon: -78.94, facilities: 1, buildings: 3 },
  { name: 'Bowmanville', fsa: ['L1C'], lat: 43.91, lon: -78.69, facilities: 1, buildings: 1 },
  { name: 'Peterborough', fsa: ['K9J', 'K9H'], lat: 44.3, lon: -78.32, facilities: 1, buildings: 3 },
  { name: 'Ottawa', fsa: ['K1P', 'K1G', 'K2E'], lat: 45.42, lon: -75.7, facilities: 2, buildings: 22 },
  { name: 'Cornwall', fsa: ['K6H', 'K6J'], lat: 45.02, lon: -74.73, facilities: 1, buildings: 2 },
  { name: 'Hawkesbury', fsa: ['K6A'], lat: 45.61, lon: -74.61, facilities: 1, buildings: 0 },
  { name: 'Maitland', fsa: ['K0E'], lat: 44.64, lon: -75.61, facilities: 1, buildings: 0 },
  { name: 'Brockville', fsa: ['K6V'], lat: 44.59, lon: -75.68, facilities: 1, buildings: 1 },
  { name: 'Trenton', fsa: ['K8V'], lat: 44.1, lon: -77.58, facilities: 1, buildings: 1 },
  { name: 'Kapuskasing', fsa: ['P5N'], lat: 49.42, lon: -82.43, facilities: 1, buildings: 0 },
  { name: 'Hearst', fsa: ['P0L'], lat: 49.69, lon: -83.67, facilities: 1, buildings: 0 },
  { name: 'Marathon', fsa: ['P0T'], lat: 48.72, lon: -86.38, facilities: 1, buildings: 0 },
  { name: 'Terrace Bay', fsa: ['P0T'], lat: 48.78, lon: -87.1, facilities: 1, buildings: 0 },
  { name: 'Dryden', fsa: ['P8N'], lat: 49.78, lon: -92.84, facilities: 1, buildings: 0 },
  { name: 'Fort Frances', fsa: ['P9A'], lat: 48.61, lon: -93.4, facilities: 1, buildings: 0 },
  { name: 'Espanola', fsa: ['P5E'], lat: 46.26, lon: -81.77, facilities: 1, buildings: 0 },
  { name: 'Iroquois Falls', fsa: ['P0K'], lat: 48.77, lon: -80.68, facilities: 1, buildings: 0 },
  { name: 'Kenora', fsa: ['P9N'], lat: 49.77, lon: -94.49, facilities: 1, buildings: 1 },
  { name: 'Perth', fsa: ['K7H'], lat: 44.9, lon: -76.25, facilities: 1, buildings: 0 },
  { name: 'Elmira', fsa: ['N3B'], lat: 43.6, lon: -80.56, facilities: 1, buildings: 0 },
  {
    name: 'St. Thomas',
    fsa: ['N5P', 'N5R'],
    lat: 42.78,
    lon: -81.19,
    facilities: 1,
    buildings: 2,
    federal: ['Saint Thomas'],
  },
];

interface Province {
  name: string;
  places: readonly { name: string; fsa: string; lat: number; lon: number }[];
  weight: number;
}

/** Other provinces: rows the build must drop as outside Ontario (README §3.4 counts). */
const OTHER_PROVINCES: readonly Province[] = [
  {
    name: 'Alberta',
    weight: 5,
    places: [
      { name: 'Fort McMurray', fsa: 'T9H', lat: 56.73, lon: -111.38 },
      { name: 'Fort Saskatchewan', fsa: 'T8L', lat: 53.71, lon: -113.21 },
      { name: 'Red Deer', fsa: 'T4N', lat: 52.27, lon: -113.81 },
      { name: 'Grande Prairie', fsa: 'T8V', lat: 55.17, lon: -118.8 },
    ],
  },
  {
    name: 'Quebec',
    weight: 3,
    places: [
      { name: 'Bécancour', fsa: 'G9H', lat: 46.34, lon: -72.43 },
      { name: 'Trois-Rivières', fsa: 'G8T', lat: 46.35, lon: -72.55 },
      { name: 'Sept-Îles', fsa: 'G4R', lat: 50.21, lon: -66.38 },
      { name: 'Saguenay', fsa: 'G7B', lat: 48.43, lon: -71.07 },
    ],
  },
  {
    name: 'British Columbia',
    weight: 2,
    places: [
      { name: 'Prince George', fsa: 'V2N', lat: 53.92, lon: -122.75 },
      { name: 'Kamloops', fsa: 'V2C', lat: 50.67, lon: -120.33 },
    ],
  },
  { name: 'Saskatchewan', weight: 1, places: [{ name: 'Estevan', fsa: 'S4A', lat: 49.14, lon: -102.99 }] },
  { name: 'Manitoba', weight: 1, places: [{ name: 'Brandon', fsa: 'R7A', lat: 49.85, lon: -99.95 }] },
  { name: 'Nova Scotia', weight: 1, places: [{ name: 'Point Tupper', fsa: 'B9A', lat: 45.6, lon: -61.35 }] },
  { name: 'New Brunswick', weight: 1, places: [{ name: 'Saint John', fsa: 'E2L', lat: 45.27, lon: -66.06 }] },
];

/** NAICS 2017 code → English and French titles, as the GHGRP files print them. */
const NAICS: Record<string, readonly [string, string]> = {
  '331110': ['Iron and Steel Mills and Ferro-Alloy Manufacturing', 'Sidérurgie'],
  '331511': ['Iron Foundries', 'Fonderies de fer'],
  '327310': ['Cement Manufacturing', 'Fabrication de ciment'],
  '327410': ['Lime Manufacturing', 'Fabrication de chaux'],
  '327214': ['Glass Manufacturing', 'Fabrication de verre'],
  '324110': ['Petroleum Refineries', 'Raffineries de pétrole'],
  '325110': ['Petrochemical Manufacturing', 'Fabrication de produits pétrochimiques'],
  '325210': ['Resin and Synthetic Rubber Manufacturing', 'Fabrication de résines et de caoutchouc synthétique'],
  '325120': ['Industrial Gas Manufacturing', 'Fabrication de gaz industriels'],
  '325313': ['Chemical Fertilizer (except Potash) Manufacturing', "Fabrication d'engrais chimiques, sauf la potasse"],
  '221112': ['Fossil-Fuel Electric Power Generation', "Production d'électricité à partir de combustibles fossiles"],
  '221119': ['Other Electric Power Generation', "Autres types de production d'électricité"],
  '221330': ['Steam and Air-Conditioning Supply', 'Production et distribution de vapeur et de climatisation'],
  '322112': ['Chemical Pulp Mills', 'Usines de pâte chimique'],
  '322121': ['Paper (except Newsprint) Mills', 'Usines de papier (sauf le papier journal)'],
  '322130': ['Paperboard Mills', 'Usines de carton'],
  '321216': ['Particle Board and Fibreboard Mills', 'Usines de panneaux de particules et de fibres'],
  '336110': [
    'Automobile and Light-Duty Motor Vehicle Manufacturing',
    "Fabrication d'automobiles et de véhicules automobiles légers",
  ],
  '311224': ['Oilseed Processing', 'Transformation des graines oléagineuses'],
  '311511': ['Fluid Milk Manufacturing', 'Fabrication de lait de consommation'],
  '311814': [
    'Commercial Bakeries and Frozen Bakery Product Manufacturing',
    'Boulangeries commerciales et fabrication de produits de boulangerie congelés',
  ],
  '312120': ['Breweries', 'Brasseries'],
  '311611': ['Animal (except Poultry) Slaughtering', "Abattage d'animaux (sauf les volailles)"],
  '311310': ['Sugar Manufacturing', 'Fabrication de sucre'],
  '111419': ['Other Food Crops Grown Under Cover', "Culture d'autres plantes alimentaires en serre"],
  '562210': ['Waste Treatment and Disposal', 'Traitement et élimination des déchets'],
  '486210': ['Pipeline Transportation of Natural Gas', 'Transport du gaz naturel par gazoduc'],
  '212220': ['Gold and Silver Ore Mining', "Extraction de minerais d'or et d'argent"],
  '331410': [
    'Non-Ferrous Metal (except Aluminum) Smelting and Refining',
    "Fonte et affinage de métaux non ferreux (sauf l'aluminium)",
  ],
  '331313': ['Primary Production of Alumina and Aluminum', "Production primaire d'alumine et d'aluminium"],
  '211142': ['Oil Sands Extraction', 'Extraction de sables bitumineux'],
  '211110': [
    'Oil and Gas Extraction (except Oil Sands)',
    'Extraction de pétrole et de gaz (sauf les sables bitumineux)',
  ],
  '622111': ['General (except Paediatric) Hospitals', 'Hôpitaux généraux (sauf pédiatriques)'],
  '611310': ['Universities', 'Universités'],
};

/** Gas profile of a sector, as shares of CO2e (AR4 basis) and biomass CO2 as a multiple of the rest. */
interface Sector {
  key: string;
  /** `{B}` is a brand, `{C}` the city; each pattern carries its NAICS code. */
  patterns: readonly (readonly [string, string])[];
  /** Typical total CO2e without biomass, t. */
  range: readonly [number, number];
  ch4: readonly [number, number];
  n2o: readonly [number, number];
  hfc?: readonly [number, number];
  sf6?: readonly [number, number];
  pfc?: readonly [number, number];
  biomass?: readonly [number, number];
  places?: readonly string[];
  weight: number;
  /** Pipelines and the like: no single point, so latitude and longitude are empty in the by-gas file. */
  linear?: boolean;
}

const NORTH = [
  'Thunder Bay',
  'Terrace Bay',
  'Marathon',
  'Espanola',
  'Kapuskasing',
  'Fort Frances',
  'Dryden',
  'Kenora',
  'Iroquois Falls',
  'Hearst',
  'Timmins',
];

const SECTORS: readonly Sector[] = [
  {
    key: 'steel',
    weight: 2,
    range: [250_000, 3_000_000],
    ch4: [0.002, 0.006],
    n2o: [0.001, 0.003],
    places: ['Hamilton', 'Sault Ste. Marie', 'Nanticoke', 'Cambridge', 'Welland'],
    patterns: [
      ['{B} Steel Works', '331110'],
      ['{B} Steel {C} Works', '331110'],
      ['{B} Foundry', '331511'],
    ],
  },
  {
    key: 'cement',
    weight: 2,
    range: [300_000, 1_100_000],
    ch4: [0.0002, 0.001],
    n2o: [0.001, 0.004],
    places: ['Bath', 'Picton', 'St. Marys', 'Mississauga', 'Bowmanville', 'Woodstock'],
    patterns: [
      ['{B} Cement Plant', '327310'],
      ['{B} Cement Works', '327310'],
    ],
  },
  {
    key: 'lime',
    weight: 1,
    range: [80_000, 450_000],
    ch4: [0.0002, 0.001],
    n2o: [0.001, 0.003],
    places: ['Ingersoll', 'Guelph', 'Espanola', 'Hamilton', 'Perth'],
    patterns: [
      ['{B} Lime Plant', '327410'],
      ['{B} Lime Works', '327410'],
    ],
  },
  {
    key: 'refinery',
    weight: 1,
    range: [500_000, 2_500_000],
    ch4: [0.002, 0.005],
    n2o: [0.001, 0.004],
    places: ['Sarnia', 'Corunna', 'Nanticoke', 'Mississauga'],
    patterns: [['{B} Refinery', '324110']],
  },
  {
    key: 'chemical',
    weight: 4,
    range: [15_000, 900_000],
    ch4: [0.001, 0.004],
    n2o: [0.001, 0.02],
    places: ['Sarnia', 'Corunna', 'Courtright', 'Maitland', 'Cornwall', 'Elmira', 'Mississauga', 'Brockville'],
    patterns: [
      ['{B} Chemical Plant', '325110'],
      ['{B} Chemicals {C} Site', '325110'],
      ['{B} Polymers Plant', '325210'],
      ['{B} Hydrogen Plant', '325120'],
    ],
  },
  {
    key: 'fertilizer',
    weight: 1,
    range: [100_000, 900_000],
    ch4: [0.001, 0.003],
    n2o: [0.08, 0.16],
    places: ['Courtright', 'Maitland', 'Sarnia'],
    patterns: [
      ['{B} Nitrogen Complex', '325313'],
      ['{B} Ammonia Plant', '325313'],
    ],
  },
  {
    key: 'power',
    weight: 6,
    range: [12_000, 1_200_000],
    ch4: [0.0005, 0.002],
    n2o: [0.001, 0.004],
    patterns: [
      ['{B} Generating Station', '221112'],
      ['{B} Energy Centre', '221112'],
      ['{B} Cogeneration Facility', '221112'],
      ['{B} Power Plant', '221112'],
    ],
  },
  {
    key: 'district',
    weight: 1,
    range: [12_000, 120_000],
    ch4: [0.0005, 0.002],
    n2o: [0.001, 0.004],
    places: ['Toronto', 'Ottawa', 'London', 'Hamilton', 'Kingston', 'Windsor'],
    patterns: [
      ['{B} District Energy', '221330'],
      ['{B} Central Heating Plant', '221330'],
    ],
  },
  {
    key: 'pulp',
    weight: 2,
    range: [40_000, 300_000],
    ch4: [0.003, 0.01],
    n2o: [0.005, 0.02],
    biomass: [3, 8],
    places: NORTH,
    patterns: [
      ['{B} Pulp Mill', '322112'],
      ['{B} Kraft Mill', '322112'],
    ],
  },
  {
    key: 'paper',
    weight: 3,
    range: [20_000, 200_000],
    ch4: [0.002, 0.008],
    n2o: [0.003, 0.01],
    biomass: [0, 1.5],
    places: [...NORTH, 'Cornwall', 'Trenton', 'St. Catharines', 'Brantford'],
    patterns: [
      ['{B} Paper Mill', '322121'],
      ['{B} Containerboard Mill', '322130'],
      ['{B} Tissue Mill', '322121'],
    ],
  },
  {
    key: 'panels',
    weight: 1,
    range: [15_000, 80_000],
    ch4: [0.003, 0.01],
    n2o: [0.005, 0.02],
    biomass: [1, 4],
    places: NORTH,
    patterns: [
      ['{B} OSB Mill', '321216'],
      ['{B} Fibreboard Plant', '321216'],
    ],
  },
  {
    key: 'auto',
    weight: 3,
    range: [15_000, 130_000],
    ch4: [0.0005, 0.002],
    n2o: [0.0005, 0.002],
    hfc: [0.01, 0.05],
    places: ['Oakville', 'Brampton', 'Windsor', 'Oshawa', 'Cambridge', 'Woodstock', 'Ingersoll', 'St. Thomas'],
    patterns: [
      ['{B} Assembly Plant', '336110'],
      ['{B} Engine Plant', '336110'],
    ],
  },
  {
    key: 'food',
    weight: 6,
    range: [10_000, 120_000],
    ch4: [0.0005, 0.004],
    n2o: [0.0005, 0.003],
    patterns: [
      ['{B} Foods {C}', '311814'],
      ['{B} Dairy', '311511'],
      ['{B} Bakery', '311814'],
      ['{B} Brewery', '312120'],
      ['{B} Oilseed Plant', '311224'],
      ['{B} Meats', '311611'],
      ['{B} Sugar Refinery', '311310'],
    ],
  },
  {
    key: 'greenhouse',
    weight: 3,
    range: [10_000, 60_000],
    ch4: [0.0005, 0.002],
    n2o: [0.0005, 0.002],
    places: ['Leamington', 'Kingsville', 'Chatham', 'St. Catharines', 'Niagara Falls'],
    patterns: [
      ['{B} Greenhouses', '111419'],
      ['{B} Farms', '111419'],
      ['{B} Produce', '111419'],
    ],
  },
  {
    key: 'landfill',
    weight: 2,
    range: [20_000, 250_000],
    ch4: [0.45, 0.6],
    n2o: [0.001, 0.004],
    patterns: [
      ['{B} Landfill', '562210'],
      ['{B} Landfill Site', '562210'],
      ['{B} Waste Management Facility', '562210'],
    ],
  },
  {
    key: 'compressor',
    weight: 3,
    range: [15_000, 200_000],
    ch4: [0.02, 0.06],
    n2o: [0.0005, 0.002],
    patterns: [
      ['{B} Compressor Station', '486210'],
      ['{B} Gas Storage Facility', '486210'],
    ],
  },
  {
    key: 'mining',
    weight: 2,
    range: [20_000, 600_000],
    ch4: [0.0005, 0.002],
    n2o: [0.001, 0.004],
    sf6: [0, 0.002],
    places: ['Sudbury', 'Timmins', 'Port Colborne', 'Marathon', 'Kirkland Lake', 'Red Lake'].filter((p) =>
      ONTARIO_PLACES.some((o) => o.name === p),
    ),
    patterns: [
      ['{B} Mine', '212220'],
      ['{B} Mill and Concentrator', '212220'],
      ['{B} Nickel Refinery', '331410'],
      ['{B} Smelter', '331410'],
    ],
  },
  {
    key: 'glass',
    weight: 1,
    range: [20_000, 150_000],
    ch4: [0.0005, 0.002],
    n2o: [0.0005, 0.002],
    patterns: [
      ['{B} Glass Plant', '327214'],
      ['{B} Container Glass', '327214'],
    ],
  },
  {
    key: 'institution',
    weight: 2,
    range: [10_000, 70_000],
    ch4: [0.0005, 0.002],
    n2o: [0.001, 0.004],
    places: ['Toronto', 'Ottawa', 'London', 'Hamilton', 'Kingston', 'Kitchener', 'Sudbury', 'Guelph'],
    patterns: [
      ['{B} General Hospital', '622111'],
      ['{B} University Central Plant', '611310'],
      ['{B} College Heating Plant', '611310'],
    ],
  },
];

/** Sectors of the facilities that stay below the federal threshold (Ontario only). */
const SMALL_SECTORS = ['greenhouse', 'food', 'institution', 'glass'];

/** Sectors of federal facilities in other provinces. */
const OTHER_SECTORS: readonly Sector[] = [
  {
    key: 'oilsands',
    weight: 3,
    range: [800_000, 6_000_000],
    ch4: [0.01, 0.05],
    n2o: [0.002, 0.006],
    patterns: [
      ['{B} Oil Sands Project', '211142'],
      ['{B} In-Situ Facility', '211142'],
    ],
  },
  {
    key: 'gasplant',
    weight: 3,
    range: [40_000, 700_000],
    ch4: [0.02, 0.08],
    n2o: [0.001, 0.003],
    patterns: [
      ['{B} Gas Plant', '211110'],
      ['{B} Battery and Gas Plant', '211110'],
    ],
  },
  {
    key: 'aluminum',
    weight: 1,
    range: [300_000, 1_500_000],
    ch4: [0.0002, 0.001],
    n2o: [0.0002, 0.001],
    pfc: [0.03, 0.08],
    sf6: [0.0005, 0.002],
    patterns: [['Aluminerie {B}', '331313']],
  },
  ...SECTORS.filter((s) =>
    ['power', 'pulp', 'cement', 'refinery', 'fertilizer', 'chemical', 'landfill'].includes(s.key),
  ).map((s) => ({ ...s, places: undefined })),
];

const BRAND_HEADS = [
  'Ash',
  'Bel',
  'Birch',
  'Bram',
  'Cal',
  'Cedar',
  'Clay',
  'Cold',
  'Corn',
  'Dal',
  'Dor',
  'Elm',
  'Fair',
  'Fern',
  'Fox',
  'Glen',
  'Gold',
  'Gran',
  'Hal',
  'Hart',
  'Hazel',
  'Heron',
  'Holly',
  'Iron',
  'Kel',
  'Kings',
  'Lake',
  'Lang',
  'Linden',
  'Maple',
  'Mar',
  'Mead',
  'Mill',
  'Moss',
  'Nor',
  'Oak',
  'Orch',
  'Pine',
  'Quarry',
  'Raven',
  'Red',
  'River',
  'Rock',
  'Rose',
  'Sand',
  'Shel',
  'Silver',
  'Spruce',
  'Stone',
  'Sum',
  'Tam',
  'Thorn',
  'Val',
  'Wal',
  'West',
  'White',
  'Willow',
  'Win',
  'Wolf',
  'Yew',
];
const BRAND_TAILS = [
  'bank',
  'bay',
  'bourne',
  'brook',
  'burn',
  'by',
  'crest',
  'croft',
  'dale',
  'den',
  'field',
  'ford',
  'gate',
  'glen',
  'grove',
  'haven',
  'holm',
  'hurst',
  'land',
  'ley',
  'mere',
  'mont',
  'more',
  'port',
  'ridge',
  'stead',
  'ton',
  'vale',
  'view',
  'wick',
  'wood',
  'worth',
];
const OWNER_SUFFIXES = [
  'Inc.',
  'Ltd.',
  'Limited',
  'Corporation',
  'Canada Inc.',
  'Energy LP',
  'Industries Ltd.',
  'Holdings Inc.',
  'Company',
  'Canada ULC',
];
const FIRST_NAMES = [
  'Alex',
  'Brianne',
  'Chantal',
  'Dev',
  'Elena',
  'Farid',
  'Gord',
  'Hélène',
  'Ian',
  'Jasmin',
  'Karan',
  'Lise',
  'Marc',
  'Nadia',
  'Owen',
  'Priya',
  'Quinn',
  'Rémi',
  'Sofia',
  'Tariq',
  'Una',
  'Vikram',
  'Wen',
  'Yvette',
  'Zoë',
];
const LAST_NAMES = [
  'Arsenault',
  'Bélanger',
  'Chen',
  'Doucet',
  'Evans',
  'Fraser',
  'Gagnon',
  'Hughes',
  'Ivanova',
  'Jaworski',
  'Kowalczyk',
  'Lévesque',
  'MacLeod',
  'Nguyen',
  "O'Brien",
  'Patel',
  'Quesnel',
  'Roy',
  'Singh',
  'Tremblay',
  'Usman',
  'Vachon',
  'Wong',
  'Yilmaz',
  'Côté',
];
const POSITIONS = [
  'Environmental Manager',
  'Plant Manager',
  'Director, Environment',
  'EHS Coordinator',
  'Environmental Specialist',
  'Manager, Regulatory Affairs',
  'Consultant',
  'Operations Superintendent',
];
const STREETS = [
  'Industrial Road',
  'Lakeshore Road',
  'River Road',
  'Concession 4',
  'Mill Street',
  'Highway 17 West',
  'Dock Street',
  'Plant Road',
  'Sideroad 10',
  'Commerce Drive',
  'Boulevard Talbot',
  'Station Road',
];
const VERIFIERS = [
  'Lakeshore Verification Services Inc.',
  'Northbridge Assurance Ltd.',
  'Maplegate Audit Group',
  'Trillium GHG Verification Corp.',
  'Boréal Vérification Ltée',
];

// ---------------------------------------------------------------------------------------------------------------
// Model. A site is a physical emitter with yearly gas tonnages; an Ontario or federal facility reports one or more
// sites, so one program can split what the other reports as one (the planted group cases).

/** Tonnes of each gas in one year (hfc = HFC-134a, pfc = CF4, bio = CO2 from biomass). */
interface GasYear {
  co2: number;
  bio: number;
  ch4: number;
  n2o: number;
  hfc: number;
  sf6: number;
  pfc: number;
}
type Site = Map<number, GasYear>;

const GASES = ['co2', 'bio', 'ch4', 'n2o', 'hfc', 'sf6', 'pfc'] as const;

function toSiteSum(sites: readonly Site[], year: number): GasYear | undefined {
  let out: GasYear | undefined;
  for (const site of sites) {
    const g = site.get(year);
    if (!g) continue;
    if (!out) out = { ...g };
    else for (const k of GASES) out[k] = roundTo(out[k] + g[k], 6);
  }
  return out;
}

interface SiteOptions {
  base?: number;
  bio?: number;
  ch4?: number;
  /** Years with no emissions at all (the facility was idle). */
  skip?: readonly number[];
  /** [year, factor]: a step change in that year. */
  jump?: readonly [number, number];
}

/**
 * Yearly tonnages from a base level, a slow trend and bounded noise (±13 %, so ordinary facilities never move more
 * than 50 % from one year to the next and trip the anomaly rule by accident).
 */
function toSite(rng: Rng, sector: Sector, o: SiteOptions = {}): Site {
  const base = o.base ?? rng.logFloat(sector.range[0], sector.range[1]);
  const share = (r?: readonly [number, number]) => (r ? rng.float(r[0], r[1]) : 0);
  let ch4 = o.ch4 ?? share(sector.ch4);
  // Outside landfills, stay clear of the 25 kt methane rule (AR5 raises CH4 by 12 %).
  if (o.ch4 === undefined && sector.key !== 'landfill') ch4 = Math.min(ch4, 15_000 / base);
  const n2o = share(sector.n2o);
  const hfc = share(sector.hfc);
  const sf6 = share(sector.sf6);
  const pfc = share(sector.pfc);
  const co2 = 1 - ch4 - n2o - hfc - sf6 - pfc;
  const bio = o.bio ?? share(sector.biomass);
  const digits = rng.pick([0, 0, 1, 2, 3]);
  const trend = rng.normal(0, 0.012);
  const site: Site = new Map();
  for (const y of years(FIRST_FEDERAL_YEAR, LAST_YEAR)) {
    const noise = clamp(rng.normal(1, 0.05), 0.87, 1.13);
    const bioNoise = clamp(rng.normal(1, 0.04), 0.9, 1.1);
    if (o.skip?.includes(y)) continue;
    const level = base * (1 + trend) ** (y - 2015) * noise * (o.jump && o.jump[0] === y ? o.jump[1] : 1);
    site.set(y, {
      co2: roundTo(level * co2, digits),
      bio: bio > 0 ? roundTo(level * bio * bioNoise, 2) : 0,
      ch4: roundTo((level * ch4) / AR4.ch4, 5),
      n2o: roundTo((level * n2o) / AR4.n2o, 5),
      hfc: roundTo((level * hfc) / AR4.hfc134a, 4),
      sf6: roundTo((level * sf6) / AR4.sf6, 5),
      pfc: roundTo((level * pfc) / AR4.cf4, 4),
    });
  }
  return site;
}

/** Years a program reports: from its first year on, whenever one of the sites emitted. */
function toProgramYears(sites: readonly Site[], from: number): number[] {
  return years(from, LAST_YEAR).filter((y) => sites.some((s) => s.has(y)));
}

interface OntarioSpec {
  key: string;
  /** Assigned once every facility exists (`1001`…). */
  id: string;
  sites: Site[];
  years: number[];
  names: Spans<string>;
  /** Years before this one print the name in capitals (0: never). */
  upperNameBefore: number;
  owners: Spans<string>;
  cities: Map<number, string>;
  naics: string;
  style: 'int' | 'dec' | 'mixed';
  biomassBlank: 'empty' | 'zero' | 'early';
  nf3: 'empty' | 'zero' | 'early';
  verifier: string | null;
}

interface Contact {
  name: string;
  position: string;
  phone: string;
  extension: string;
  email: string;
  address: string;
  city: string;
  province: string;
  postal: string;
}

interface FederalSpec {
  key: string;
  /** Assigned once every facility exists (`G10001`…). */
  id: string;
  province: string;
  sites: Site[];
  years: number[];
  names: Spans<string>;
  cities: Map<number, string>;
  /** The spelling the indicator table uses. */
  indicatorCity: string;
  naics: string;
  legal: Spans<string>;
  trade: Spans<string>;
  address: string;
  postal: Spans<string>;
  lat: string;
  lon: string;
  npri: string;
  businessNumber: string;
  duns: string;
  contacts: Spans<Contact | null>;
  methods: Spans<readonly boolean[]>;
  /** Multiplier on the sites' tonnages in a year (a federal figure that disagrees with Ontario's). */
  factor: Map<number, number>;
  /** Years reported, but missing from the emissions-by-gas file (the indicator table still has them). */
  byGasGaps: Set<number>;
  /** A year's public contact replaced (the row carrying the one undecodable byte). */
  contactOverride: Map<number, Contact>;
  indicatorZeroCoordinates: boolean;
}

// The product's own normalization keeps random names apart, so the demo's only links are the planted ones.
const toNameKey = normalizeName;
const toCityKey = normalizeCity;
/** Similarity, with a length pre-check: most random pairs are far apart. */
const toSimilarity = (a: string, b: string) => (maxSimilarity(a, b) < 0.7 ? 0 : similarity(a, b));

/**
 * Keeps every random facility name unique and unlike any other name in the same city, so the only links and
 * near-misses in the demo are the planted ones. Margin: 0.75 against the product's 0.85.
 */
class NameGuard {
  private readonly owners = new Map<string, string>();
  private readonly byCity = new Map<string, { owner: string; name: string }[]>();

  fits(owner: string, names: readonly string[], cities: readonly string[]): boolean {
    const keys = [...new Set(names.map(toNameKey))];
    for (const k of keys) {
      const o = this.owners.get(k);
      if (o !== undefined && o !== owner) return false;
    }
    for (const c of new Set(cities.map(toCityKey))) {
      for (const e of this.byCity.get(c) ?? []) {
        if (e.owner !== owner && keys.some((k) => toSimilarity(k, e.name) >= 0.75)) return false;
      }
    }
    return true;
  }

  add(owner: string, names: readonly string[], cities: readonly string[]): void {
    const keys = [...new Set(names.map(toNameKey))];
    for (const k of keys) this.owners.set(k, owner);
    for (const c of new Set(cities.map(toCityKey))) {
      const list = this.byCity.get(c) ?? [];
      this.byCity.set(c, list);
      for (const k of keys) list.push({ owner, name: k });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Building the facilities.

const PLACE_BY_NAME = new Map(ONTARIO_PLACES.map((p) => [p.name, p]));
function toPlace(name: string): Place {
  const p = PLACE_BY_NAME.get(name);
  if (!p) throw new Error(`demo: unknown place ${name}`);
  return p;
}
function toSector(key: string): Sector {
  const s = SECTORS.find((x) => x.key === key) ?? OTHER_SECTORS.find((x) => x.key === key);
  if (!s) throw new Error(`demo: unknown sector ${key}`);
  return s;
}

interface PlaceLike {
  name: string;
  fsa: readonly string[];
  lat: number;
  lon: number;
  federal?: readonly string[];
}

class DemoWorld {
  readonly ontario: OntarioSpec[] = [];
  readonly federal: FederalSpec[] = [];
  /** Ordinary linked facilities, the pool the row-level plants are drawn from. */
  readonly pairs: { on: OntarioSpec; fed: FederalSpec }[] = [];
  readonly guard = new NameGuard();
  private readonly brands = new Set<string>();
  private seq = 0;

  constructor(readonly rng: Rng) {}

  key(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  /** An invented one-word brand (`Ashbrook`); two words once the single ones run short. */
  brand(attempt: number): string {
    const one = () => {
      const head = this.rng.pick(BRAND_HEADS);
      const tail = this.rng.pick(BRAND_TAILS);
      return head.toLowerCase() === tail ? `${head}field` : head + tail;
    };
    const b = attempt < 30 ? one() : `${one()} ${one()}`;
    return this.brands.has(b) ? this.brand(attempt + 1) : b;
  }

  claimBrand(b: string): void {
    this.brands.add(b);
  }

  pickPlace(sector: Sector): Place {
    const names = sector.places ?? ONTARIO_PLACES.map((p) => p.name);
    return this.rng.pickWeighted(names.map((n) => [toPlace(n), toPlace(n).facilities] as const));
  }

  owner(brand: string): string {
    const r = this.rng;
    if (r.chance(0.08))
      return `${brand} ${r.pick(['Group', 'Products', 'Foods', 'Manufacturing'])}, ${r.pick(['Inc.', 'Ltd.', 'LP'])}`;
    return `${brand} ${r.pick(OWNER_SUFFIXES)}`;
  }

  postal(fsa: readonly string[]): string {
    const r = this.rng;
    const letter = () =>
      r.pick(['A', 'B', 'C', 'E', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'R', 'S', 'T', 'V', 'W', 'X', 'Y', 'Z']);
    return `${r.pick(fsa)} ${r.int(0, 9)}${letter()}${r.int(0, 9)}`;
  }

  contact(province: string, place: PlaceLike, domain: string): Contact {
    const r = this.rng;
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const ascii = (s: string) =>
      stripAccents(s)
        .toLowerCase()
        .replace(/[^a-z]/g, '');
    return {
      name: `${first} ${last}`,
      position: r.pick(POSITIONS),
      phone: `${r.pick(['416', '519', '613', '705', '807', '905', '289', '647'])}${r.int(2_000_000, 9_999_999)}`,
      extension: r.chance(0.15) ? String(r.int(100, 9999)) : '',
      email: `${ascii(first)}.${ascii(last)}@${domain}`,
      address: `${r.int(1, 9999)} ${r.pick(STREETS)}`,
      city: place.name,
      province,
      postal: this.postal(place.fsa),
    };
  }

  addOntario(p: {
    key: string;
    sites: Site[];
    start: number;
    names: Spans<string>;
    owners: Spans<string>;
    place: Place;
    naics: string;
    city?: string;
  }): OntarioSpec {
    const r = this.rng;
    const yrs = toProgramYears(p.sites, p.start);
    const city = p.city ?? p.place.name;
    // About 30 % of rows carry the city in capitals (README §1): whole facilities, plus stray rows.
    const allUpper = r.chance(0.22);
    const spec: OntarioSpec = {
      key: p.key,
      id: '',
      sites: p.sites,
      years: yrs,
      names: p.names,
      upperNameBefore: r.chance(0.1) ? r.int(2011, 2014) : 0,
      owners: p.owners,
      cities: new Map(yrs.map((y) => [y, allUpper || r.chance(0.06) ? city.toUpperCase() : city])),
      naics: p.naics,
      style: r.pickWeighted<OntarioSpec['style']>([
        ['int', 3],
        ['dec', 4],
        ['mixed', 3],
      ]),
      biomassBlank: r.pick<OntarioSpec['biomassBlank']>(['empty', 'zero', 'early']),
      nf3: r.pickWeighted<OntarioSpec['nf3']>([
        ['empty', 15],
        ['zero', 2],
        ['early', 3],
      ]),
      verifier: r.chance(0.8) ? r.pick(VERIFIERS) : null,
    };
    this.ontario.push(spec);
    return spec;
  }

  addFederal(p: {
    key: string;
    sites: Site[];
    start: number;
    names: Spans<string>;
    legal: Spans<string>;
    brand: string;
    province: string;
    place: PlaceLike;
    naics: string;
    city?: string;
    linear?: boolean;
  }): FederalSpec {
    const r = this.rng;
    const yrs = toProgramYears(p.sites, p.start);
    const base = p.city ?? p.place.name;
    const alt = p.city === undefined && p.place.federal && r.chance(0.6) ? r.pick(p.place.federal) : undefined;
    const altFrom = r.int(FIRST_FEDERAL_YEAR, LAST_YEAR - 2);
    // README §3.3: cities in capitals in some years (e.g. 2020) and mixed case in others.
    const upper = r.chance(0.3);
    const cityOf = (y: number) => {
      const c = alt !== undefined && y >= altFrom ? alt : base;
      return upper && y >= 2017 && y <= 2020 ? c.toUpperCase() : c;
    };
    const domain = `${stripAccents(p.brand)
      .toLowerCase()
      .replace(/[^a-z]/g, '')}.${p.province === 'Quebec' ? 'qc.ca' : r.pick(['ca', 'com'])}`;
    // Head-office contacts are common: the contact's city is then not the facility's.
    const contactPlace =
      p.province === 'Ontario' && r.chance(0.3) ? toPlace(r.pick(['Toronto', 'Mississauga', 'Oakville'])) : p.place;
    const first = r.chance(0.35) ? null : this.contact(p.province, contactPlace, domain);
    const changeYear = r.int(2008, 2022);
    const second = r.chance(0.5) ? this.contact(p.province, contactPlace, domain) : r.chance(0.3) ? null : first;
    const method = () => [r.chance(0.2), r.chance(0.7), r.chance(0.3), r.chance(0.3), r.chance(0.25)];
    const early = method();
    const late = method();
    late[0] = r.chance(0.8);
    const postal = this.postal(p.place.fsa);
    const spec: FederalSpec = {
      key: p.key,
      id: '',
      province: p.province,
      sites: p.sites,
      years: yrs,
      names: p.names,
      cities: new Map(yrs.map((y) => [y, cityOf(y)])),
      indicatorCity: base,
      naics: p.naics,
      legal: p.legal,
      trade: [[FIRST_FEDERAL_YEAR, r.chance(0.7) ? p.brand : '']],
      address: `${r.int(1, 9990)} ${r.pick(STREETS)}`,
      postal: r.chance(0.1)
        ? [
            [FIRST_FEDERAL_YEAR, postal.toLowerCase()],
            [2018, postal],
          ]
        : [[FIRST_FEDERAL_YEAR, postal]],
      lat: p.linear ? '' : toNumberText(p.place.lat + r.float(-0.06, 0.06), 4),
      lon: p.linear ? '' : toNumberText(p.place.lon + r.float(-0.06, 0.06), 4),
      npri: r.pickWeighted([
        [String(r.int(1000, 32000)), 7],
        ['0', 1.5],
        ['', 1.5],
      ]),
      businessNumber: r.chance(0.03) ? '123456789' : String(r.int(100_000_000, 899_999_999)),
      duns: r.chance(0.4) ? '0' : String(r.int(200_000_000, 259_999_999)),
      contacts: [
        [FIRST_FEDERAL_YEAR, first],
        [changeYear, second],
      ],
      methods: [
        [FIRST_FEDERAL_YEAR, early.some(Boolean) ? early : [false, true, false, false, false]],
        [FEDERAL_THRESHOLD_DROP, late.some(Boolean) ? late : [true, false, false, false, false]],
      ],
      factor: new Map(),
      byGasGaps: new Set(),
      contactOverride: new Map(),
      indicatorZeroCoordinates: !!p.linear || r.chance(0.01),
    };
    this.federal.push(spec);
    return spec;
  }

  /** An Ontario facility and its federal counterpart: same name and city after normalization in some year. */
  addLinkedPair(sectorKey?: string): { on: OntarioSpec; fed: FederalSpec } {
    const r = this.rng;
    const sector = sectorKey ? toSector(sectorKey) : r.pickWeighted(SECTORS.map((s) => [s, s.weight] as const));
    const place = this.pickPlace(sector);
    const key = this.key('pair');
    for (let attempt = 0; attempt < 500; attempt++) {
      const brand = this.brand(attempt);
      const [pattern, naics] = r.pick(sector.patterns);
      const name = pattern.replace('{B}', brand).replace('{C}', place.name);
      const owner = this.owner(brand);
      const mode = r.pickWeighted([
        ['same', 45],
        ['upper', 20],
        ['punct', 15],
        ['prefix', 20],
      ] as const);
      const punct = name.includes(' and ')
        ? name.replace(' and ', ' & ')
        : name.endsWith(` ${place.name}`)
          ? `${name.slice(0, -place.name.length - 1)} - ${place.name}`
          : undefined;
      const fedNames: Spans<string> =
        mode === 'same'
          ? [[FIRST_FEDERAL_YEAR, name]]
          : mode === 'punct' && punct
            ? [[FIRST_FEDERAL_YEAR, punct]]
            : mode === 'prefix'
              ? [
                  [FIRST_FEDERAL_YEAR, `${owner} - ${name}`],
                  [2012, name],
                ]
              : [
                  [FIRST_FEDERAL_YEAR, name.toUpperCase()],
                  [FEDERAL_THRESHOLD_DROP, name],
                ];
      const names = [name, ...fedNames.map(([, n]) => n)];
      const cities = [place.name, ...(place.federal ?? [])];
      if (!this.guard.fits(key, names, cities)) continue;
      this.guard.add(key, names, cities);
      this.claimBrand(brand);

      const base = r.logFloat(sector.range[0], sector.range[1]);
      const opened = r.chance(0.1) ? r.int(2008, 2020) : FIRST_FEDERAL_YEAR;
      const site = toSite(r, sector, { base, skip: years(FIRST_FEDERAL_YEAR, opened - 1) });
      const onStart = base >= 25_000 ? (r.chance(0.9) ? FIRST_ONTARIO_YEAR : 2015) : r.chance(0.5) ? 2015 : 2019;
      const fedStart = base >= 50_000 ? FIRST_FEDERAL_YEAR : FEDERAL_THRESHOLD_DROP;
      const owners: Spans<string> = r.chance(0.2)
        ? [
            [FIRST_ONTARIO_YEAR, owner],
            [r.int(2012, 2023), this.owner(this.brand(0))],
          ]
        : [[FIRST_ONTARIO_YEAR, owner]];
      const on = this.addOntario({
        key,
        sites: [site],
        start: onStart,
        names: [[FIRST_ONTARIO_YEAR, name]],
        owners,
        place,
        naics,
      });
      const fed = this.addFederal({
        key,
        sites: [site],
        start: fedStart,
        names: fedNames,
        legal: owners,
        brand,
        province: 'Ontario',
        place,
        naics,
      });
      return { on, fed };
    }
    throw new Error(`demo: no free facility name left in ${place.name}`);
  }

  /** A facility only one program knows: below the federal threshold, or federal with no Ontario record. */
  addSingle(kind: 'ontario'): OntarioSpec;
  addSingle(kind: 'federal' | 'other', opened?: number): FederalSpec;
  addSingle(kind: 'ontario' | 'federal' | 'other', opened?: number): OntarioSpec | FederalSpec {
    const r = this.rng;
    const province = kind === 'other' ? r.pickWeighted(OTHER_PROVINCES.map((p) => [p, p.weight] as const)) : undefined;
    const sector =
      kind === 'ontario'
        ? toSector(r.pick(SMALL_SECTORS))
        : kind === 'federal'
          ? toSector(r.pick(['compressor', 'compressor', 'mining', 'power', 'landfill', 'chemical']))
          : r.pickWeighted(OTHER_SECTORS.map((s) => [s, s.weight] as const));
    const otherPlace = province ? r.pick(province.places) : undefined;
    const place: PlaceLike = otherPlace ? { ...otherPlace, fsa: [otherPlace.fsa] } : this.pickPlace(sector);
    const key = this.key(kind);
    const linear = kind === 'federal' && sector.key === 'compressor' && r.chance(0.4);
    for (let attempt = 0; attempt < 500; attempt++) {
      const brand = this.brand(attempt);
      const [pattern, naics] = r.pick(sector.patterns);
      let name = pattern.replace('{B}', brand).replace('{C}', place.name);
      if (linear) name = `${brand} Pipeline, ${r.pick(['Northern Ontario', 'Eastern Ontario', 'Ontario'])} Section`;
      if (province?.name === 'Quebec' && r.chance(0.5))
        name = `${r.pick(['Usine', 'Centrale', 'Papetière', 'Complexe'])} ${brand}`;
      // Outside Ontario a name need only be unique: the build links Ontario rows alone, and comparing every
      // name in a city with every other would make an all-Canada file quadratic to invent.
      const guarded = province ? [] : [place.name];
      if (!this.guard.fits(key, [name], guarded)) continue;
      this.guard.add(key, [name], guarded);
      this.claimBrand(brand);
      const owner =
        province?.name === 'Quebec' && r.chance(0.5)
          ? `${brand} ${r.pick(['Ltée', 'Énergie Inc.', 'Société en commandite'])}`
          : this.owner(brand);
      if (kind === 'ontario') {
        const site = toSite(r, sector, { base: r.logFloat(3_000, 8_000) });
        return this.addOntario({
          key,
          sites: [site],
          start: r.chance(0.5) ? 2015 : 2019,
          names: [[FIRST_ONTARIO_YEAR, name]],
          owners: [[FIRST_ONTARIO_YEAR, owner]],
          place: place as Place,
          naics,
        });
      }
      const base = r.logFloat(Math.max(sector.range[0], 12_000), sector.range[1]);
      // `opened`: no emissions before that year (the same draws are made either way).
      const site = toSite(
        r,
        sector,
        opened === undefined ? { base } : { base, skip: years(FIRST_FEDERAL_YEAR, opened - 1) },
      );
      return this.addFederal({
        key,
        sites: [site],
        start: base >= 50_000 ? FIRST_FEDERAL_YEAR : FEDERAL_THRESHOLD_DROP,
        names: [[FIRST_FEDERAL_YEAR, name]],
        legal: [[FIRST_FEDERAL_YEAR, owner]],
        brand,
        province: province?.name ?? 'Ontario',
        place,
        naics,
        linear,
      });
    }
    throw new Error(`demo: no free facility name left in ${place.name}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Planted cases.

interface SpecPair {
  on: OntarioSpec;
  fed: FederalSpec;
}

interface PlantInput {
  sector: string;
  naics?: string;
  place: string;
  name: string;
  onNames?: Spans<string>;
  fedNames?: Spans<string>;
  owners: Spans<string>;
  brands: readonly string[];
  base: number;
  site?: SiteOptions;
  onStart?: number;
  fedStart?: number;
  onCity?: string;
  fedCity?: string;
}

/** One site reported by both programs, with names and cities fixed by hand. */
function toPlantedPair(w: DemoWorld, p: PlantInput): SpecPair {
  const sector = toSector(p.sector);
  const place = toPlace(p.place);
  const key = w.key('planted');
  const onNames = p.onNames ?? [[FIRST_ONTARIO_YEAR, p.name]];
  const fedNames = p.fedNames ?? [[FIRST_FEDERAL_YEAR, p.name]];
  w.guard.add(
    key,
    [...onNames, ...fedNames].map(([, n]) => n),
    [place.name, p.onCity ?? place.name, p.fedCity ?? place.name],
  );
  for (const b of p.brands) w.claimBrand(b);
  const site = toSite(w.rng, sector, { base: p.base, ...p.site });
  const naics = p.naics ?? sector.patterns[0]![1];
  const on = w.addOntario({
    key,
    sites: [site],
    start: p.onStart ?? FIRST_ONTARIO_YEAR,
    names: onNames,
    owners: p.owners,
    place,
    naics,
    city: p.onCity,
  });
  const fed = w.addFederal({
    key,
    sites: [site],
    start: p.fedStart ?? (p.base >= 50_000 ? FIRST_FEDERAL_YEAR : FEDERAL_THRESHOLD_DROP),
    names: fedNames,
    legal: p.owners,
    brand: p.brands[0]!,
    province: 'Ontario',
    place,
    naics,
    city: p.fedCity,
  });
  return { on, fed };
}

interface Plants {
  renamed: SpecPair & { oldName: string; newName: string };
  splitFederal: { on: OntarioSpec; fed: [FederalSpec, FederalSpec] };
  sharedFederal: { on: [OntarioSpec, OntarioSpec]; fed: FederalSpec };
  nearMissOtherCity: SpecPair & { name: string; ontarioCity: string; federalCity: string };
  nearMissSimilarName: SpecPair & { ontarioName: string; federalName: string; city: string };
  biomass: (SpecPair & { kind: 'pulp_mill' | 'biomass_power' })[];
  methane: SpecPair;
  yoyJump: SpecPair;
  disagreement: SpecPair;
  missingYears: SpecPair & { years: number[] };
  variants: { accent: SpecPair; ampersand: SpecPair; saintCity: SpecPair; borough: SpecPair };
}

function plantEdgeCases(w: DemoWorld): Plants {
  const r = w.rng;

  // An Ontario rename in 2018 that the federal program follows (federal: capitals before 2010).
  const oldName = 'Wentmore Steel Hamilton Works';
  const newName = 'Ironvale Hamilton Works';
  const renamed = toPlantedPair(w, {
    sector: 'steel',
    place: 'Hamilton',
    name: oldName,
    onNames: [
      [FIRST_ONTARIO_YEAR, oldName],
      [RENAME_YEAR, newName],
    ],
    fedNames: [
      [FIRST_FEDERAL_YEAR, oldName.toUpperCase()],
      [FIRST_ONTARIO_YEAR, oldName],
      [RENAME_YEAR, newName],
    ],
    owners: [
      [FIRST_ONTARIO_YEAR, 'Wentmore Steel Corporation'],
      [RENAME_YEAR, 'Ironvale Metals Inc.'],
    ],
    brands: ['Wentmore', 'Ironvale'],
    base: 1_600_000,
  });

  // One Ontario id reporting a mill and its energy centre; the federal program has two facilities.
  const split = (() => {
    const place = toPlace('Cornwall');
    const key = w.key('planted');
    const mill = 'Raisin River Mill';
    const centre = 'Raisin River Energy Centre';
    w.guard.add(key, [mill, centre], [place.name]);
    w.claimBrand('Raisin River');
    const millSite = toSite(r, toSector('paper'), { base: 160_000, bio: 1.2 });
    const centreSite = toSite(r, toSector('power'), { base: 35_000 });
    const owners: Spans<string> = [[FIRST_ONTARIO_YEAR, 'Raisin River Paper Ltd.']];
    const ontario = w.addOntario({
      key,
      sites: [millSite, centreSite],
      start: FIRST_ONTARIO_YEAR,
      names: [
        [FIRST_ONTARIO_YEAR, centre],
        [2015, mill],
      ],
      owners,
      place,
      naics: '322121',
    });
    const a = w.addFederal({
      key,
      sites: [millSite],
      start: FIRST_FEDERAL_YEAR,
      names: [[FIRST_FEDERAL_YEAR, mill]],
      legal: owners,
      brand: 'Raisin River',
      province: 'Ontario',
      place,
      naics: '322121',
    });
    const b = w.addFederal({
      key,
      sites: [centreSite],
      start: FEDERAL_THRESHOLD_DROP,
      names: [[FIRST_FEDERAL_YEAR, centre]],
      legal: owners,
      brand: 'Raisin River',
      province: 'Ontario',
      place,
      naics: '221112',
    });
    return { on: ontario, fed: [a, b] as [FederalSpec, FederalSpec] };
  })();

  // Two Ontario ids on one site that the federal program reports as one facility, renamed in 2017.
  const shared = (() => {
    const place = toPlace('Sarnia');
    const key = w.key('planted');
    const polymer = 'Clearwater Polymer Plant';
    const solvents = 'Clearwater Solvents Plant';
    w.guard.add(key, [polymer, solvents], [place.name]);
    w.claimBrand('Clearwater');
    const a = toSite(r, toSector('chemical'), { base: 140_000 });
    const b = toSite(r, toSector('chemical'), { base: 90_000 });
    const owners: Spans<string> = [[FIRST_ONTARIO_YEAR, 'Clearwater Chemicals Inc.']];
    const o1 = w.addOntario({
      key,
      sites: [a],
      start: FIRST_ONTARIO_YEAR,
      names: [[FIRST_ONTARIO_YEAR, polymer]],
      owners,
      place,
      naics: '325210',
    });
    const o2 = w.addOntario({
      key,
      sites: [b],
      start: FIRST_ONTARIO_YEAR,
      names: [[FIRST_ONTARIO_YEAR, solvents]],
      owners,
      place,
      naics: '325110',
    });
    const fed = w.addFederal({
      key,
      sites: [a, b],
      start: FIRST_FEDERAL_YEAR,
      names: [
        [FIRST_FEDERAL_YEAR, polymer],
        [FEDERAL_THRESHOLD_DROP, solvents],
      ],
      legal: owners,
      brand: 'Clearwater',
      province: 'Ontario',
      place,
      naics: '325210',
    });
    return { on: [o1, o2] as [OntarioSpec, OntarioSpec], fed };
  })();

  // Same name, other city: two compressor stations, never linked.
  const otherCity = (() => {
    const name = 'Silver Birch Compressor Station';
    const onPlace = toPlace('Kapuskasing');
    const fedPlace = toPlace('Hearst');
    const onKey = w.key('planted');
    const fedKey = w.key('planted');
    w.guard.add(onKey, [name], [onPlace.name]);
    w.guard.add(fedKey, [name], [fedPlace.name]);
    w.claimBrand('Silver Birch');
    const sector = toSector('compressor');
    const owners: Spans<string> = [[FIRST_ONTARIO_YEAR, 'Silver Birch Gas Transmission Ltd.']];
    const ontario = w.addOntario({
      key: onKey,
      sites: [toSite(r, sector, { base: 30_000 })],
      start: FIRST_ONTARIO_YEAR,
      names: [[FIRST_ONTARIO_YEAR, name]],
      owners,
      place: onPlace,
      naics: '486210',
    });
    const fed = w.addFederal({
      key: fedKey,
      sites: [toSite(r, sector, { base: 70_000 })],
      start: FIRST_FEDERAL_YEAR,
      names: [[FIRST_FEDERAL_YEAR, name]],
      legal: owners,
      brand: 'Silver Birch',
      province: 'Ontario',
      place: fedPlace,
      naics: '486210',
    });
    return { on: ontario, fed, name, ontarioCity: onPlace.name, federalCity: fedPlace.name };
  })();

  // Same city, names one letter apart (similarity ≥ 0.85), never linked.
  const similar = (() => {
    const place = toPlace('Picton');
    const ontarioName = 'Lakeport Cement Plant';
    const federalName = 'Lakeport Cement Plants';
    const onKey = w.key('planted');
    const fedKey = w.key('planted');
    w.guard.add(onKey, [ontarioName], [place.name]);
    w.guard.add(fedKey, [federalName], [place.name]);
    w.claimBrand('Lakeport');
    const sector = toSector('cement');
    const owners: Spans<string> = [[FIRST_ONTARIO_YEAR, 'Lakeport Cement Inc.']];
    const ontario = w.addOntario({
      key: onKey,
      sites: [toSite(r, sector, { base: 420_000 })],
      start: FIRST_ONTARIO_YEAR,
      names: [[FIRST_ONTARIO_YEAR, ontarioName]],
      owners,
      place,
      naics: '327310',
    });
    const fed = w.addFederal({
      key: fedKey,
      sites: [toSite(r, sector, { base: 450_000 })],
      start: FIRST_FEDERAL_YEAR,
      names: [[FIRST_FEDERAL_YEAR, federalName]],
      legal: owners,
      brand: 'Lakeport',
      province: 'Ontario',
      place,
      naics: '327310',
    });
    return { on: ontario, fed, ontarioName, federalName, city: place.name };
  })();

  const pulp = toPlantedPair(w, {
    sector: 'pulp',
    place: 'Marathon',
    name: 'Black Spruce Kraft Mill',
    owners: [[FIRST_ONTARIO_YEAR, 'Black Spruce Pulp Inc.']],
    brands: ['Black Spruce'],
    base: 150_000,
    site: { bio: 6 },
  });
  const bioPower = toPlantedPair(w, {
    sector: 'power',
    naics: '221119',
    place: 'Dryden',
    name: 'Wabigoon Bioenergy Station',
    owners: [[FIRST_ONTARIO_YEAR, 'Wabigoon Power LP']],
    brands: ['Wabigoon'],
    base: 18_000,
    site: { bio: 11 },
    fedStart: FEDERAL_THRESHOLD_DROP,
  });
  const methane = toPlantedPair(w, {
    sector: 'landfill',
    place: 'Ottawa',
    name: 'Cedar Hollow Landfill',
    owners: [[FIRST_ONTARIO_YEAR, 'Cedar Hollow Waste Services Inc.']],
    brands: ['Cedar Hollow'],
    base: 110_000,
    site: { ch4: 0.55 },
  });
  const yoyJump = toPlantedPair(w, {
    sector: 'power',
    place: 'Windsor',
    name: 'Amberley Energy Centre',
    owners: [[FIRST_ONTARIO_YEAR, 'Amberley Generation LP']],
    brands: ['Amberley'],
    base: 160_000,
    site: { jump: [LAST_YEAR, 2.1] },
  });
  const disagreement = toPlantedPair(w, {
    sector: 'chemical',
    place: 'Maitland',
    name: 'Glenmore Chemical Works',
    owners: [[FIRST_ONTARIO_YEAR, 'Glenmore Chemicals Ltd.']],
    brands: ['Glenmore'],
    base: 95_000,
  });
  // A revised federal report: 20 % below what Ontario published for 2024.
  disagreement.fed.factor.set(LAST_YEAR, 0.8);
  const idle = [2013, 2014, 2015];
  const missing = toPlantedPair(w, {
    sector: 'paper',
    place: 'Trenton',
    name: 'Fallbrook Paper Mill',
    owners: [[FIRST_ONTARIO_YEAR, 'Fallbrook Fine Papers Ltd.']],
    brands: ['Fallbrook'],
    base: 85_000,
    site: { bio: 0.5, skip: idle },
  });

  const accent = toPlantedPair(w, {
    sector: 'food',
    naics: '311224',
    place: 'Hawkesbury',
    name: 'Usine Sainte-Thérèse',
    fedNames: [[FIRST_FEDERAL_YEAR, 'USINE SAINTE THERESE']],
    owners: [[FIRST_ONTARIO_YEAR, 'Huilerie Outaouais Ltée']],
    brands: ['Outaouais'],
    base: 45_000,
  });
  // No trade name, so the indicator table names the company by its legal name (with its accent).
  accent.fed.trade = [[FIRST_FEDERAL_YEAR, '']];
  const ampersand = toPlantedPair(w, {
    sector: 'steel',
    naics: '331511',
    place: 'Welland',
    name: 'Marlow & Sons Castings',
    fedNames: [[FIRST_FEDERAL_YEAR, 'Marlow and Sons Castings']],
    owners: [[FIRST_ONTARIO_YEAR, 'Marlow & Sons Foundry Ltd.']],
    brands: ['Marlow'],
    base: 30_000,
  });
  const saintCity = toPlantedPair(w, {
    sector: 'cement',
    place: 'St. Marys',
    name: 'Wildwood Cement Works',
    owners: [[FIRST_ONTARIO_YEAR, 'Wildwood Cement Company']],
    brands: ['Wildwood'],
    base: 500_000,
    fedCity: 'Saint Marys',
  });
  const borough = toPlantedPair(w, {
    sector: 'food',
    naics: '311814',
    place: 'Toronto',
    name: 'Morningside Commercial Bakery',
    owners: [[FIRST_ONTARIO_YEAR, 'Morningside Baking Co.']],
    brands: ['Morningside'],
    base: 22_000,
    onCity: 'TORONTO',
    fedCity: 'Toronto (Scarborough)',
  });

  return {
    renamed: { ...renamed, oldName, newName },
    splitFederal: split,
    sharedFederal: shared,
    nearMissOtherCity: otherCity,
    nearMissSimilarName: similar,
    biomass: [
      { ...pulp, kind: 'pulp_mill' },
      { ...bioPower, kind: 'biomass_power' },
    ],
    methane,
    yoyJump,
    disagreement,
    missingYears: { ...missing, years: idle },
    variants: { accent, ampersand, saintCity, borough },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Facts: what was planted, by the ids the files use.

export interface DemoLink {
  ontario: string;
  federal: string;
}

export interface FacilitiesDemoFacts {
  seed: number;
  scale: number;
  /** Distinct Ontario GHG IDs in the registry file. */
  ontarioIds: number;
  /** Distinct GHGRP ids of facilities in Ontario, over both federal files. */
  federalOntarioIds: number;
  /** Data rows of the registry file, the two planted repeats included. */
  ontarioRows: number;
  byGasRows: number;
  byGasOutsideOntarioRows: number;
  indicatorRows: number;
  indicatorOutsideOntarioRows: number;
  ewrbRows: number;
  /** Old name 2010–2017, new name from `year` on, in both programs. */
  renamed: DemoLink & { oldName: string; newName: string; year: number };
  /** One Ontario id whose names match two federal facilities in the same city. */
  splitFederal: { ontario: string; federal: [string, string] };
  /** One federal facility whose name matches each of two Ontario ids in different years. */
  sharedFederal: { ontario: [string, string]; federal: string };
  /** Same name, different cities, nothing else in common (each single-program). */
  nearMissOtherCity: DemoLink & { name: string; ontarioCity: string; federalCity: string };
  /** Same city, names with similarity ≥ 0.85 but not equal (each single-program). */
  nearMissSimilarName: DemoLink & { ontarioName: string; federalName: string; city: string };
  /** Biomass CO2 far above the rest: counted in Ontario's total, excluded federally. */
  biomass: (DemoLink & { kind: 'pulp_mill' | 'biomass_power' })[];
  /** A landfill, CH4 well above 10 % of CO2e. */
  methane: DemoLink;
  /** 2024 total above 1.5 × 2023 in both programs. */
  yoyJump: DemoLink;
  /** 2024 federal total 20 % below the biomass-adjusted provincial one. */
  disagreement: DemoLink;
  /** No rows in either program in `years`. */
  missingYears: DemoLink & { years: number[] };
  /** Linked despite spelling: accents and case, `&`/`and`, `St.`/`Saint` city, a bracketed borough. */
  variants: { accent: DemoLink; ampersand: DemoLink; saintCity: DemoLink; borough: DemoLink };
  /** Ontario ids below the federal threshold, never federal (the near-miss Ontario ids not included). */
  ontarioOnly: string[];
  /** Federal facilities in Ontario with no Ontario record (the near-miss federal ids not included). */
  federalOnly: string[];
  /** Linked facilities whose 2023 federal figure is only in the indicator table (absent from the by-gas file). */
  indicatorOnly: DemoLink[];
  /** An Ontario row repeated exactly (the repeat follows the original). */
  duplicate: { ontario: string; year: number };
  /** An Ontario (Year, ID) repeated with a different total (first row, then the conflicting one). */
  conflictingDuplicate: { ontario: string; year: number; totals: [number, number] };
  /** An Ontario row with an empty city. */
  emptyCity: { ontario: string; year: number };
  /** The by-gas row whose contact mailing address holds the one raw 0xFF byte. */
  undecodable: { federal: string; year: number };
  /** The EWRB_ID written with a U+FFFD in front. */
  ewrbReplacementCharId: string;
}

const toLink = (p: SpecPair): DemoLink => ({ ontario: p.on.id, federal: p.fed.id });

interface RowPlants {
  duplicate: { on: OntarioSpec; year: number };
  conflicting: { on: OntarioSpec; year: number };
  emptyCity: { on: OntarioSpec; year: number };
  undecodable: { fed: FederalSpec; year: number };
  indicatorOnly: SpecPair[];
}

/** The 0xFF byte replaces an accented letter in this address (written as U+0001, swapped after encoding). */
const MARK = '\u0001';
const MARKED_ADDRESS = `1200 Mont${MARK}e du Moulin`;

interface DemoWorldResult {
  w: DemoWorld;
  plants: Plants;
  rows: RowPlants;
  ontarioOnly: OntarioSpec[];
  federalOnly: FederalSpec[];
}

function toDemoWorld(seed: number, scale: number, otherProvinceShare?: number): DemoWorldResult {
  // With a share asked for, facilities outside Ontario open in a year drawn from 2005–2023 (their own stream, so
  // the default output does not change), which makes one year's reporters about a tenth of the rows, as in
  // the real file (18,771 rows for 2004–2023, 1,732 facilities in the 2021 indicator table).
  const openings = otherProvinceShare === undefined ? undefined : createRng(seed).fork('other-openings');
  const root = createRng(seed);
  const w = new DemoWorld(root.fork('facilities'));
  const plants = plantEdgeCases(w);
  const target = Math.max(1, Math.round(120 * scale));
  const onlyCount = Math.max(2, Math.round(target * 0.12));
  const indicatorOnlyCount = Math.max(2, Math.round(3 * scale));
  const linkedCount = Math.max(8 + indicatorOnlyCount, target - w.ontario.length - onlyCount);
  for (let i = 0; i < linkedCount; i++) w.pairs.push(w.addLinkedPair());
  const ontarioOnly = Array.from({ length: onlyCount }, () => w.addSingle('ontario'));
  const federalOnly = Array.from({ length: Math.max(2, Math.round(6 * scale)) }, () => w.addSingle('federal'));
  // Other provinces: about 10 % of the by-gas rows, or the share asked for (the real file: about 80 %).
  const ontarioFederalRows = w.federal.reduce((n, f) => n + f.years.length, 0);
  const enough =
    otherProvinceShare === undefined
      ? (rows: number) => rows * 9 >= ontarioFederalRows
      : (rows: number) => rows >= (ontarioFederalRows * otherProvinceShare) / (1 - otherProvinceShare);
  let otherRows = 0;
  while (!enough(otherRows))
    otherRows += w.addSingle('other', openings?.int(FIRST_FEDERAL_YEAR + 1, LAST_YEAR - 1)).years.length;

  // Ids: early reporters first (README §4: smaller emitters that joined later carry higher ids).
  const ids = root.fork('ids');
  ids
    .shuffle(w.ontario)
    .sort((a, b) => (a.years[0] ?? LAST_YEAR) - (b.years[0] ?? LAST_YEAR))
    .forEach((s, i) => (s.id = String(1001 + i)));
  ids
    .shuffle(w.federal)
    .sort((a, b) => (a.years[0] ?? LAST_YEAR) - (b.years[0] ?? LAST_YEAR))
    .forEach((s, i) => (s.id = `G${10001 + i}`));

  // Row-level cases, each on a different ordinary facility.
  const pool = root.fork('rows').shuffle(w.pairs);
  const take = (what: string, ok: (p: SpecPair) => boolean): SpecPair => {
    const i = pool.findIndex(ok);
    if (i < 0) throw new Error(`demo: no facility left for ${what}`);
    return pool.splice(i, 1)[0]!;
  };
  const duplicate = take('duplicate', (p) => p.on.years.includes(2021));
  const conflicting = take('conflicting duplicate', (p) => p.on.years.includes(2020));
  const emptyCity = take('empty city', (p) => p.on.years.includes(2016));
  emptyCity.on.cities.set(2016, '');
  const undecodable = take('undecodable byte', (p) => p.fed.years.includes(2019));
  undecodable.fed.contactOverride.set(2019, {
    ...(at(undecodable.fed.contacts, 2019) ?? w.contact('Ontario', toPlace('Hawkesbury'), 'moulin.ca')),
    address: MARKED_ADDRESS,
  });
  const indicatorOnly = Array.from({ length: indicatorOnlyCount }, () =>
    take('indicator only', (p) => [2022, 2023, 2024].every((y) => p.fed.years.includes(y))),
  );
  for (const p of indicatorOnly) p.fed.byGasGaps.add(INDICATOR_YEAR);

  return {
    w,
    plants,
    rows: {
      duplicate: { on: duplicate.on, year: 2021 },
      conflicting: { on: conflicting.on, year: 2020 },
      emptyCity: { on: emptyCity.on, year: 2016 },
      undecodable: { fed: undecodable.fed, year: 2019 },
      indicatorOnly,
    },
    ontarioOnly,
    federalOnly,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering.

const byNumericId = <T extends { id: string }>(a: T, b: T) =>
  Number(a.id.replace(/\D/g, '')) - Number(b.id.replace(/\D/g, ''));

/** One registry row (README §1): AR4 CO2e per gas, total with biomass CO2, reporting amount without it. */
function toOntarioFields(spec: OntarioSpec, year: number, rng: Rng, co2Factor = 1): string[] {
  const g = toSiteSum(spec.sites, year);
  if (!g) throw new Error(`demo: Ontario ${spec.id} has no emissions in ${year}`);
  const int = spec.style === 'int' || (spec.style === 'mixed' && year < 2015);
  const fmt = (v: number) => (int ? String(Math.round(v)) : toNumberText(v, 6));
  // Empty and 0 both mean none (README §1); which one depends on the facility and the year.
  const none = (mode: 'empty' | 'zero' | 'early', from: number) =>
    mode === 'zero' || (mode === 'early' && year >= from) ? '0' : '';
  const co2 = fmt(g.co2 * co2Factor);
  const bio = g.bio > 0 ? (int ? String(Math.round(g.bio)) : toNumberText(g.bio, 2)) : none(spec.biomassBlank, 2015);
  const ch4 = fmt(g.ch4 * AR4.ch4);
  const n2o = fmt(g.n2o * AR4.n2o);
  const sf6 = fmt(g.sf6 * AR4.sf6);
  const hfc = fmt(g.hfc * AR4.hfc134a);
  const pfc = fmt(g.pfc * AR4.cf4);
  const nf3 = none(spec.nf3, 2017);
  const value = (s: string) => (s === '' ? 0 : Number(s));
  const fossil = [co2, ch4, n2o, sf6, hfc, pfc, nf3].reduce((sum, s) => sum + value(s), 0);
  const total = Math.round(fossil + value(bio));
  const reporting = Math.round(fossil);
  const verified = year >= 2015 && spec.verifier !== null && rng.chance(0.6);
  const verification = verified
    ? String(rng.chance(0.85) ? reporting : Math.round(reporting * rng.float(0.98, 1.02)))
    : '';
  const name = at(spec.names, year);
  return [
    String(year),
    spec.id,
    at(spec.owners, year),
    year < spec.upperNameBefore ? name.toUpperCase() : name,
    spec.cities.get(year) ?? '',
    spec.naics,
    co2,
    bio,
    ch4,
    n2o,
    sf6,
    hfc,
    pfc,
    nf3,
    String(total),
    String(reporting),
    verification,
    verified ? (spec.verifier ?? '') : '',
  ];
}

function toOntarioFile(
  d: DemoWorldResult,
  rng: Rng,
): { bytes: Buffer; rows: number; ids: Set<string>; conflictingTotals: [number, number] } {
  const rows: { year: number; id: number; fields: string[]; line: string; spec: OntarioSpec }[] = [];
  for (const spec of [...d.w.ontario].sort(byNumericId)) {
    for (const year of spec.years) {
      const fields = toOntarioFields(spec, year, rng);
      rows.push({ year, id: Number(spec.id), fields, line: toCsvLine(fields), spec });
    }
  }
  rows.sort((a, b) => a.year - b.year || a.id - b.id);
  const { duplicate, conflicting } = d.rows;
  const lines = [toCsvLine(ONTARIO_COLUMNS)];
  let conflictingTotals: [number, number] | undefined;
  for (const r of rows) {
    lines.push(r.line);
    if (r.spec === duplicate.on && r.year === duplicate.year) lines.push(r.line);
    if (r.spec === conflicting.on && r.year === conflicting.year) {
      // A resubmission with revised CO2, published beside the original.
      const fields = toOntarioFields(r.spec, r.year, rng, 1.04);
      lines.push(toCsvLine(fields));
      conflictingTotals = [Number(r.fields[14]), Number(fields[14])];
    }
  }
  if (!conflictingTotals || conflictingTotals[0] === conflictingTotals[1])
    throw new Error('demo: the conflicting duplicate does not conflict');
  return {
    bytes: toCp1252(lines.map((l) => `${l}\r\n`).join(''), ONTARIO_FILE),
    rows: lines.length - 1,
    ids: new Set(rows.map((r) => r.spec.id)),
    conflictingTotals,
  };
}

/** GHGRP tonnages and AR5 CO2e for one facility-year; the total excludes biomass CO2 (README §3). */
function toFederalGases(spec: FederalSpec, year: number) {
  const g = toSiteSum(spec.sites, year);
  if (!g) throw new Error(`demo: federal ${spec.id} has no emissions in ${year}`);
  const f = spec.factor.get(year) ?? 1;
  const co2 = f === 1 ? g.co2 : roundTo(g.co2 * f, 3);
  const t = (v: number) => roundTo(v * f, 6);
  const ch4 = t(g.ch4);
  const n2o = t(g.n2o);
  const hfc = t(g.hfc);
  const pfc = t(g.pfc);
  const sf6 = t(g.sf6);
  const e = {
    ch4: roundTo(ch4 * AR5.ch4, 6),
    n2o: roundTo(n2o * AR5.n2o, 6),
    hfc: roundTo(hfc * AR5.hfc134a, 6),
    pfc: roundTo(pfc * AR5.cf4, 6),
    sf6: roundTo(sf6 * AR5.sf6, 6),
  };
  // Published totals equal the sum of the printed CO2e columns to the last digit (README §3.1).
  const total = roundTo(co2 + e.ch4 + e.n2o + e.hfc + e.pfc + e.sf6, 6);
  return { co2, ch4, n2o, hfc, pfc, sf6, e, total };
}

function toByGasFields(spec: FederalSpec, year: number): string[] {
  const n = toNumberText;
  const g = toFederalGases(spec, year);
  const [en, fr] = NAICS[spec.naics] ?? ['', ''];
  const c = spec.contactOverride.get(year) ?? at(spec.contacts, year);
  const contact = c
    ? [c.name, c.position, c.phone, c.extension, c.email, c.address, c.city, c.province, c.postal]
    : Array<string>(9).fill('');
  const fields = [
    spec.id,
    String(year),
    at(spec.names, year),
    spec.address,
    spec.cities.get(year) ?? spec.indicatorCity,
    spec.province,
    at(spec.postal, year),
    spec.lat,
    spec.lon,
    spec.npri,
    spec.naics,
    en,
    fr,
    at(spec.legal, year),
    at(spec.trade, year),
    spec.businessNumber,
    spec.duns,
    ...contact,
    n(g.co2),
    n(g.ch4),
    n(g.e.ch4),
    n(g.n2o),
    n(g.e.n2o),
    ...HFC_SPECIES.flatMap(([s]) => (s === 'HFC-134a' ? [n(g.hfc), n(g.e.hfc)] : ['0', '0'])),
    n(g.e.hfc),
    ...PFC_SPECIES.flatMap(([s]) => (s === 'CF4' ? [n(g.pfc), n(g.e.pfc)] : ['0', '0'])),
    n(g.e.pfc),
    n(g.sf6),
    n(g.e.sf6),
    n(g.total),
    ...at(spec.methods, year).map((applies) => (applies ? APPLICABLE : NOT_APPLICABLE)),
  ];
  if (fields.length !== BY_GAS_COLUMNS.length)
    throw new Error(`demo: ${fields.length} by-gas fields for ${BY_GAS_COLUMNS.length} columns`);
  return fields;
}

function toByGasFile(d: DemoWorldResult): { bytes: Buffer; rows: number; outside: number; ontarioIds: Set<string> } {
  const rows: { year: number; id: number; line: string; spec: FederalSpec }[] = [];
  for (const spec of d.w.federal) {
    for (const year of spec.years) {
      if (!spec.byGasGaps.has(year))
        rows.push({ year, id: Number(spec.id.slice(1)), line: toCsvLine(toByGasFields(spec, year)), spec });
    }
  }
  // README §3.3: reference year descending, then GHGRP id ascending.
  rows.sort((a, b) => b.year - a.year || a.id - b.id);
  const text = [toCsvLine(BY_GAS_COLUMNS), ...rows.map((r) => r.line)].map((l) => `${l}\r\n`).join('');
  const body = Buffer.from(text, 'utf8');
  const at0 = body.indexOf(MARK.charCodeAt(0));
  if (at0 < 0 || body.indexOf(MARK.charCodeAt(0), at0 + 1) >= 0)
    throw new Error('demo: expected exactly one marked byte in the by-gas file');
  // The one byte no decoder can read: a stray 0xFF where an accented letter was.
  body[at0] = 0xff;
  const ontario = rows.filter((r) => r.spec.province === 'Ontario');
  return {
    bytes: Buffer.concat([UTF8_BOM, body]),
    rows: rows.length,
    outside: rows.length - ontario.length,
    ontarioIds: new Set(ontario.map((r) => r.spec.id)),
  };
}

/** Kilotonnes with 2 decimals and a plain space between thousands (`4 111.48`, README §3.4). */
function toKtText(tonnes: number): string {
  const [whole, decimals] = (tonnes / 1000).toFixed(2).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}.${decimals!}`;
}

function toIndicatorFile(d: DemoWorldResult): {
  bytes: Buffer;
  rows: number;
  outside: number;
  ontarioIds: Set<string>;
} {
  const specs = d.w.federal.filter((s) => s.years.includes(INDICATOR_YEAR)).sort(byNumericId);
  const lines = specs.map((spec) => {
    const digits = spec.id.slice(1);
    const [en] = NAICS[spec.naics] ?? [''];
    const cvd = 1_370_000 + (Number(spec.naics) % 9973);
    const zero = spec.indicatorZeroCoordinates;
    return toCsvLine([
      digits,
      at(spec.names, INDICATOR_YEAR),
      at(spec.trade, INDICATOR_YEAR) || at(spec.legal, INDICATOR_YEAR),
      spec.indicatorCity,
      spec.address,
      at(spec.postal, INDICATOR_YEAR).toUpperCase(),
      spec.province,
      zero ? '0' : spec.lat,
      zero ? '0' : spec.lon,
      toKtText(toFederalGases(spec, INDICATOR_YEAR).total),
      KT_UNITS,
      String(INDICATOR_YEAR),
      en,
      `https://www23.statcan.gc.ca/imdb/p3VD.pl?Function=getVD&TVD=1369825&CVD=${cvd}&CPV=${spec.naics}&CST=27012022&CLV=5&MLV=5`,
      // Both quirks as published: a trailing space, and a line break inside the quoted last field.
      `https://climate-change.canada.ca/facility-emissions/GHGRP-${spec.id}-${INDICATOR_YEAR}.html `,
      `http://indicators-map.canada.ca/App/Detail?id=01${digits}&GoCTemplateCulture=en-CA\n`,
    ]);
  });
  const text = [toCsvLine(INDICATOR_COLUMNS), ...lines].map((l) => `${l}\n`).join('');
  const ontario = specs.filter((s) => s.province === 'Ontario');
  return {
    bytes: toCp1252(text, INDICATOR_FILE),
    rows: specs.length,
    outside: specs.length - ontario.length,
    ontarioIds: new Set(ontario.map((s) => s.id)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// EWRB buildings (README §2): intensities per floor area, no facility ids; metric and imperial pairs.

interface PropertyType {
  name: string;
  weight: number;
  eui: readonly [number, number];
  ghg: readonly [number, number];
  water: readonly [number, number];
}

const PROPERTY_TYPES: readonly PropertyType[] = [
  { name: 'Multifamily Housing', weight: 30, eui: [0.8, 1.8], ghg: [30, 95], water: [0.8, 2] },
  { name: 'Office', weight: 20, eui: [0.6, 1.6], ghg: [15, 70], water: [0.25, 1] },
  { name: 'K-12 School', weight: 12, eui: [0.6, 1.4], ghg: [25, 70], water: [0.2, 0.6] },
  { name: 'Hospital (General Medical & Surgical)', weight: 3, eui: [2, 3], ghg: [80, 120], water: [1, 2] },
  { name: 'Senior Living Community', weight: 5, eui: [1.2, 2.2], ghg: [50, 100], water: [1, 2] },
  { name: 'Warehouse', weight: 10, eui: [0.5, 0.9], ghg: [10, 40], water: [0.2, 0.4] },
  { name: 'Retail Store', weight: 8, eui: [0.6, 1.5], ghg: [20, 60], water: [0.2, 0.6] },
  { name: 'Hotel', weight: 4, eui: [1.2, 2.4], ghg: [45, 100], water: [1, 2] },
  { name: 'Supermarket/Grocery Store', weight: 4, eui: [1.8, 2.8], ghg: [55, 110], water: [0.4, 1] },
  { name: 'Ice/Curling Rink', weight: 2, eui: [1, 2], ghg: [35, 80], water: [0.5, 1.5] },
  { name: 'Distribution Center', weight: 2, eui: [0.5, 0.9], ghg: [10, 35], water: [0.2, 0.4] },
];
const SECONDARY_TYPES = ['Parking', 'Retail Store', 'Office', 'Fitness Center/Health Club/Gym', 'Restaurant'];

/** GJ/m² → ekWh/ft², m²-based → ft²-based, GJ of natural gas → m³. */
const KWH_FT2_PER_GJ_M2 = 277.778 / 10.7639;
const FT2_PER_M2 = 10.7639;
const GJ_PER_M3_GAS = 0.0373;

function toEwrbFile(rng: Rng, scale: number, rows?: number): { bytes: Buffer; rows: number; replacementId: string } {
  const count = rows ?? Math.max(20, Math.round(300 * scale));
  const places = ONTARIO_PLACES.filter((p) => p.buildings > 0);
  const step = clamp(Math.floor(600_000 / count), 1, 40);
  const scientific = new Set(Array.from({ length: 3 }, () => rng.int(0, count - 1)));
  const damaged = rng.int(0, count - 1);
  let id = 100_000 + rng.int(0, 5_000);
  let replacementId = '';
  const n9 = (v: number) => toNumberText(v, 9);
  const lines = [toCsvLine(EWRB_COLUMNS)];
  for (let i = 0; i < count; i++) {
    id += rng.int(1, step);
    const place = rng.pickWeighted(places.map((p) => [p, p.buildings] as const));
    const spelling = rng.pickWeighted([
      [place.name, 70],
      [place.name.toUpperCase(), 12],
      [place.ewrb ? rng.pick(place.ewrb) : place.name, place.ewrb ? 18 : 0],
    ]);
    const fsa = rng.pick(place.fsa);
    const type = rng.pickWeighted(PROPERTY_TYPES.map((t) => [t, t.weight] as const));
    const eui = rng.float(type.eui[0], type.eui[1]);
    const elecShare = rng.float(0.2, 0.6);
    const elec = eui * elecShare * rng.float(0.97, 1.03);
    const gas = eui * (1 - elecShare) * rng.float(0.95, 1.05);
    const water = rng.float(type.water[0], type.water[1]);
    const ghg = rng.float(type.ghg[0], type.ghg[1]);
    const source = eui * rng.float(1.1, 1.35);
    const wnSite = eui * rng.float(0.95, 1.08);
    const wnSource = source * (wnSite / eui);
    const waterMissing = rng.chance(0.06);
    const tiny = () => `${toNumberText(rng.float(1, 9.9), 5)}E-05`;
    const sci = scientific.has(i);
    const others = rng.chance(0.35)
      ? `${type.name}, ${rng.pick(SECONDARY_TYPES.filter((t) => t !== type.name))}`
      : type.name;
    const idText = String(id);
    if (i === damaged) replacementId = idText;
    lines.push(
      toCsvLine([
        // README §2: one EWRB_ID carries a literal U+FFFD in front, damaged upstream.
        i === damaged ? `\uFFFD${idText}` : idText,
        spelling,
        rng.chance(0.3) ? fsa.toLowerCase() : fsa,
        type.name,
        rng.chance(0.9) ? type.name : rng.pick(['Other', 'Mixed Use Property', type.name]),
        type.name,
        others,
        rng.chance(0.95) ? NOT_AVAILABLE : rng.pick(['BOMA BEST Gold', 'BOMA BEST Silver', 'LEED Canada Silver']),
        n9(elec),
        toNumberText(elec * KWH_FT2_PER_GJ_M2, 1),
        n9(gas),
        toNumberText(gas / GJ_PER_M3_GAS, 8),
        n9(gas / GJ_PER_M3_GAS / FT2_PER_M2),
        waterMissing ? NOT_AVAILABLE : n9(water),
        waterMissing ? NOT_AVAILABLE : sci ? tiny() : n9(water / FT2_PER_M2),
        sci ? tiny() : rng.chance(0.8) ? '0' : NOT_AVAILABLE,
        sci ? tiny() : '0',
        n9(eui),
        toNumberText(eui * KWH_FT2_PER_GJ_M2, 2),
        n9(source),
        toNumberText(source * KWH_FT2_PER_GJ_M2, 2),
        n9(wnSite),
        toNumberText(wnSite * KWH_FT2_PER_GJ_M2, 2),
        n9(wnSource),
        toNumberText(wnSource * KWH_FT2_PER_GJ_M2, 2),
        toNumberText(ghg, 8),
        toNumberText(ghg / FT2_PER_M2, 1),
        rng.chance(0.3) ? String(rng.int(1, 100)) : NOT_AVAILABLE,
        rng.chance(0.1) ? rng.pick(['2024', '2024, 2023', '2024, 2023, 2022']) : NOT_AVAILABLE,
        rng.pickWeighted([
          ['Yes', 70],
          ['No', 29],
          ['Oui', 1],
        ]),
        // Data year 2024, checked during the 2025 reporting season.
        rng.chance(0.85)
          ? `2025-${String(rng.int(4, 10)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
          : NOT_AVAILABLE,
      ]),
    );
  }
  // CRLF between records, none after the last (README §2).
  return { bytes: Buffer.concat([UTF8_BOM, Buffer.from(lines.join('\r\n'), 'utf8')]), rows: count, replacementId };
}

// ---------------------------------------------------------------------------------------------------------------

export interface FacilitiesDemoOptions {
  seed?: number;
  /** Multiplies the number of facilities (1 → about 120 Ontario ids). */
  scale?: number;
  /**
   * Share of the by-gas rows outside Ontario, 0–0.95; default about 0.1. Given, those facilities also open in
   * staggered years, so a year's reporters relate to the file's rows as in the real all-Canada file (share 0.8).
   */
  otherProvinceShare?: number;
  /** EWRB buildings; default 300 × scale. */
  ewrbRows?: number;
  onProgress?: (msg: string) => void;
}

/**
 * Writes the four demo inputs into `dir` (see FACILITY_DEMO_FILES) and returns the paths written (joined to `dir`)
 * and the ids of every planted case. `scale` multiplies the number of facilities (1 → about 120 Ontario ids).
 */
export async function writeFacilitiesDemo(
  dir: string,
  options: FacilitiesDemoOptions = {},
): Promise<{ files: string[]; facts: FacilitiesDemoFacts }> {
  const seed = options.seed ?? DEFAULT_SEED;
  const scale = options.scale ?? 1;
  const { otherProvinceShare, ewrbRows } = options;
  if (!Number.isInteger(seed)) throw new Error(`demo: seed must be an integer, got ${seed}`);
  if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`demo: scale must be a positive number, got ${scale}`);
  if (otherProvinceShare !== undefined && !(otherProvinceShare >= 0 && otherProvinceShare <= 0.95))
    throw new Error(`demo: otherProvinceShare must be from 0 to 0.95, got ${otherProvinceShare}`);
  if (ewrbRows !== undefined && !(Number.isInteger(ewrbRows) && ewrbRows >= 20))
    throw new Error(`demo: ewrbRows must be an integer of at least 20, got ${ewrbRows}`);
  const progress = options.onProgress ?? (() => undefined);

  progress('inventing facilities');
  const d = toDemoWorld(seed, scale, otherProvinceShare);
  const root = createRng(seed);
  const ontario = toOntarioFile(d, root.fork('ontario-rows'));
  const byGas = toByGasFile(d);
  const indicator = toIndicatorFile(d);
  const ewrb = toEwrbFile(root.fork('ewrb'), scale, ewrbRows);

  const outputs: [string, Buffer, number][] = [
    [ONTARIO_FILE, ontario.bytes, ontario.rows],
    [BY_GAS_FILE, byGas.bytes, byGas.rows],
    [INDICATOR_FILE, indicator.bytes, indicator.rows],
    [EWRB_FILE, ewrb.bytes, ewrb.rows],
  ];
  const files: string[] = [];
  for (const [file, bytes, rows] of outputs) {
    const path = join(dir, file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
    files.push(path);
    progress(`${file}: ${rows.toLocaleString('en-CA')} rows`);
  }

  const p = d.plants;
  const facts: FacilitiesDemoFacts = {
    seed,
    scale,
    ontarioIds: ontario.ids.size,
    federalOntarioIds: new Set([...byGas.ontarioIds, ...indicator.ontarioIds]).size,
    ontarioRows: ontario.rows,
    byGasRows: byGas.rows,
    byGasOutsideOntarioRows: byGas.outside,
    indicatorRows: indicator.rows,
    indicatorOutsideOntarioRows: indicator.outside,
    ewrbRows: ewrb.rows,
    renamed: { ...toLink(p.renamed), oldName: p.renamed.oldName, newName: p.renamed.newName, year: RENAME_YEAR },
    splitFederal: { ontario: p.splitFederal.on.id, federal: [p.splitFederal.fed[0].id, p.splitFederal.fed[1].id] },
    sharedFederal: { ontario: [p.sharedFederal.on[0].id, p.sharedFederal.on[1].id], federal: p.sharedFederal.fed.id },
    nearMissOtherCity: {
      ...toLink(p.nearMissOtherCity),
      name: p.nearMissOtherCity.name,
      ontarioCity: p.nearMissOtherCity.ontarioCity,
      federalCity: p.nearMissOtherCity.federalCity,
    },
    nearMissSimilarName: {
      ...toLink(p.nearMissSimilarName),
      ontarioName: p.nearMissSimilarName.ontarioName,
      federalName: p.nearMissSimilarName.federalName,
      city: p.nearMissSimilarName.city,
    },
    biomass: p.biomass.map((b) => ({ ...toLink(b), kind: b.kind })),
    methane: toLink(p.methane),
    yoyJump: toLink(p.yoyJump),
    disagreement: toLink(p.disagreement),
    missingYears: { ...toLink(p.missingYears), years: p.missingYears.years },
    variants: {
      accent: toLink(p.variants.accent),
      ampersand: toLink(p.variants.ampersand),
      saintCity: toLink(p.variants.saintCity),
      borough: toLink(p.variants.borough),
    },
    ontarioOnly: d.ontarioOnly.map((s) => s.id).sort(),
    federalOnly: d.federalOnly.map((s) => s.id).sort(),
    indicatorOnly: d.rows.indicatorOnly.map(toLink),
    duplicate: { ontario: d.rows.duplicate.on.id, year: d.rows.duplicate.year },
    conflictingDuplicate: {
      ontario: d.rows.conflicting.on.id,
      year: d.rows.conflicting.year,
      totals: ontario.conflictingTotals,
    },
    emptyCity: { ontario: d.rows.emptyCity.on.id, year: d.rows.emptyCity.year },
    undecodable: { federal: d.rows.undecodable.fed.id, year: d.rows.undecodable.year },
    ewrbReplacementCharId: ewrb.replacementId,
  };
  return { files, facts };
}
