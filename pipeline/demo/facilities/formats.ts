/**
 * The four upstream files as published (shared/data/facilities/README.md): paths, headers in the publishers'
 * column order (§1, §2, §3.2, §3.4), the fixed texts and number formats, and the encodings they are written in.
 */

export const ONTARIO_FILE = 'ontario/GHG_Data_2010_2024_demo.csv';
export const BY_GAS_FILE = 'federal/PDGES-GHGRP-GHGEmissionsGES-2004-Present.csv';
export const INDICATOR_FILE = 'federal/Greenhouse gas emissions from large facilities.csv';
export const EWRB_FILE = 'ewrb/ewrb_raw_data.csv';

/** Paths written, relative to the demo folder. */
export const FACILITY_DEMO_FILES: readonly string[] = [ONTARIO_FILE, BY_GAS_FILE, INDICATOR_FILE, EWRB_FILE];

/** README §1: 18 columns. */
export const ONTARIO_COLUMNS = [
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
export const HFC_SPECIES: readonly (readonly [string, number])[] = [
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
export const PFC_SPECIES: readonly (readonly [string, number])[] = [
  ['CF4', 6630],
  ['C2F6', 11100],
  ['C3F8', 8900],
  ['C4F10', 9200],
  ['C4F8', 9540],
  ['C5F12', 8550],
  ['C6F14', 7910],
];
export const AR5 = { ch4: 28, n2o: 265, sf6: 23500, hfc134a: 1300, cf4: 6630 } as const;
/** The Ontario registry's CO2e uses AR4 values (README §1: CH4 ×25, N2O ×298). */
export const AR4 = { ch4: 25, n2o: 298, sf6: 22800, hfc134a: 1430, cf4: 7390 } as const;

const CO2E_FR = 'tonnes CO2e / tonnes éq. CO2';
const speciesColumns = (species: readonly (readonly [string, number])[]) =>
  species.flatMap(([s]) => [`${s} (tonnes)`, `${s} (${CO2E_FR})`]);

/** README §3.2: 81 bilingual columns. */
export const BY_GAS_COLUMNS = [
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
export const INDICATOR_COLUMNS = [
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
export const EWRB_COLUMNS = [
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

export const KT_UNITS = 'kilotonnes of carbon dioxide equivalents (kt CO2 eq)';
export const APPLICABLE = 'Applicable';
export const NOT_APPLICABLE = 'Not applicable / Sans Objet';
export const NOT_AVAILABLE = 'Not Available';
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A number as the publishers print it: at most `digits` decimals, trailing zeros dropped, never an exponent. */
export function toNumberText(n: number, digits = 6): string {
  const f = 10 ** digits;
  const v = Math.round(n * f) / f;
  return Object.is(v, -0) || v === 0 ? '0' : String(v);
}

export const roundTo = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
export const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** Windows-1252 bytes for text restricted to ASCII and U+00A0–U+00FF, where cp1252 and Latin-1 agree. */
export function toCp1252(text: string, file: string): Buffer {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the allowed range is every ASCII byte, controls included.
  const bad = /[^\x00-\x7f\xa0-\xff]/.exec(text);
  if (bad)
    throw new Error(
      `${file}: character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} has no single-byte form here`,
    );
  return Buffer.from(text, 'latin1');
}

/** Kilotonnes with 2 decimals and a plain space between thousands (`4 111.48`, README §3.4). */
export function toKtText(tonnes: number): string {
  const [whole, decimals] = (tonnes / 1000).toFixed(2).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}.${decimals!}`;
}
