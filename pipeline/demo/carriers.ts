/**
 * Demo inputs for the carriers build, in the FMCSA file formats described in shared/data/carriers/README.md:
 * the census (§3 `FMCSA_CENSUS1_YYYYMon.txt`, or §1 the open-data CSV form) and the SMS Input Inspection,
 * Violation and Crash files ("SMS Input file layouts"). Every carrier, vehicle and event is invented (real US,
 * Canadian and Mexican city names only); nothing is copied from an upstream file.
 *
 * Sized like the real thing: scale 700 is about 2.1 M carriers, 7 M inspections, 10 M violations and 150 k
 * crashes over 24 months, so everything streams. Carriers are generated one at a time in DOT order, each from
 * its own forked RNG, and rows go to four buffered write streams that respect backpressure; nothing but
 * per-carrier state and the fact lists is kept.
 *
 * Deterministic for a seed (STYLE.md practice 4): every draw comes from `createRng`, never the clock or
 * Math.random; `asOf` pins the end of the window.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRng, type Rng } from '../../contract/core/rng.ts';
import { toCsvField } from './csv-text.ts';

export const DEFAULT_SEED = 20261031;
export const DEFAULT_AS_OF = '2026-10-31';
/** SMS measures 24 months of inspections and crashes (methodology §B.3). */
export const DEFAULT_MONTHS = 24;
export const CARRIERS_PER_SCALE = 3000;
/** Below this the planted carriers would not fit. */
const MIN_CARRIERS = 50;

export const CENSUS_TXT_FILE = 'census/FMCSA_CENSUS1_2026Oct.txt';
export const CENSUS_CSV_FILE = 'census/sms_input_census.csv';
export const INSPECTION_FILE = 'sms/SMS_Input_Inspection.csv';
export const VIOLATION_FILE = 'sms/SMS_Input_Violation.csv';
export const CRASH_FILE = 'sms/SMS_Input_Crash.csv';

export interface CarriersDemoOptions {
  seed?: number;
  /** Carriers = round(3000 × scale). */
  scale?: number;
  /** Months of inspections and crashes, ending `asOf` (1–24, default 24). */
  months?: number;
  /** ISO date ending the window, default '2026-10-31'. */
  asOf?: string;
  /** `txt`: FMCSA_CENSUS1 download (quoted, Y/N, CRLF); `csv`: the open-data export (true/false, LF). */
  censusForm?: 'txt' | 'csv';
  onProgress?: (msg: string) => void;
}

export interface CarriersDemoFacts {
  carriers: number;
  inspections: number;
  violations: number;
  crashes: number;
  asOf: string;
  /** README §1: a self-reported fleet far out of line with its drivers (45,001 power units, 2 drivers). */
  outlier: { dot: number; power_units: number; drivers: number };
  /** Carriers with PC_FLAG Y. */
  passenger: number[];
  /** Carriers with HM_FLAG Y (only they have placarded inspections). */
  hazmat: number[];
  /** Carriers with no inspection in the window. */
  clean: number[];
  /** A carrier whose recent mileage is `0,0` (unknown). */
  zeroMileage: number;
  /** A carrier with an empty NBR_POWER_UNIT. */
  emptyPowerUnits: number;
  /** A carrier with thousands of power units. */
  bigFleet: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Formats. Column names in publisher order.

/** README §3: the 42 census fields in FMCSA_CENSUS1 order (FAX after TELEPHONE); the txt header is upper case. */
const CENSUS_FIELDS = [
  'dot_number',
  'legal_name',
  'dba_name',
  'carrier_operation',
  'hm_flag',
  'pc_flag',
  'phy_street',
  'phy_city',
  'phy_state',
  'phy_zip',
  'phy_country',
  'mailing_street',
  'mailing_city',
  'mailing_state',
  'mailing_zip',
  'mailing_country',
  'telephone',
  'fax',
  'email_address',
  'mcs150_date',
  'mcs150_mileage',
  'mcs150_mileage_year',
  'add_date',
  'oic_state',
  'nbr_power_unit',
  'driver_total',
  'recent_mileage',
  'recent_mileage_year',
  'vmt_source_id',
  'private_only',
  'authorized_for_hire',
  'exempt_for_hire',
  'private_property',
  'private_passenger_business',
  'private_passenger_nonbusiness',
  'migrant',
  'us_mail',
  'federal_government',
  'state_government',
  'local_government',
  'indian_tribe',
  'op_other',
] as const;
type CensusField = (typeof CENSUS_FIELDS)[number];
/** README §1: the open-data export names the same fields in lower case and moves `fax` to the end. */
const CENSUS_CSV_FIELDS: readonly CensusField[] = [...CENSUS_FIELDS.filter((f) => f !== 'fax'), 'fax'];
const CENSUS_TXT_HEADER = `${CENSUS_FIELDS.map((f) => `"${f.toUpperCase()}"`).join(',')}\r\n`;
const CENSUS_CSV_HEADER = `${CENSUS_CSV_FIELDS.join(',')}\n`;

/** README "SMS Input file layouts": SMS Input – Inspection, 39 columns. */
const INSPECTION_COLUMNS = [
  'Unique_ID',
  'Report_Number',
  'Report_State',
  'DOT_Number',
  'Insp_Date',
  'Insp_level_ID',
  'County_code_State',
  'Time_Weight',
  'Driver_OOS_Total',
  'Vehicle_OOS_Total',
  'Total_Hazmat_Sent',
  'OOS_Total',
  'Hazmat_OOS_Total',
  'Hazmat_Placard_req',
  'Unit_Type_Desc',
  'Unit_Make',
  'Unit_License',
  'Unit_License_State',
  'VIN',
  'Unit_Decal_Number',
  'Unit_Type_Desc2',
  'Unit_Make2',
  'Unit_License2',
  'Unit_License_State2',
  'VIN2',
  'Unit_Decal_Number2',
  'Unsafe_Insp',
  'Fatigued_Insp',
  'Dr_Fitness_Insp',
  'Subt_Alcohol_Insp',
  'Vh_Maint_Insp',
  'HM_Insp',
  'BASIC_Viol',
  'Unsafe_Viol',
  'Fatigued_Viol',
  'Dr_Fitness_Viol',
  'Subt_Alcohol_Viol',
  'Vh_Maint_Viol',
  'HM_Viol',
] as const;
/** README "SMS Input file layouts": SMS Input – Violation, 13 columns. */
const VIOLATION_COLUMNS = [
  'Unique_ID',
  'Insp_Date',
  'DOT_Number',
  'Viol_Code',
  'BASIC_Desc',
  'OOS_Indicator',
  'OOS_Weight',
  'Severity_Weight',
  'Time_Weight',
  'Total_Severity_Wght',
  'Section_Desc',
  'Group_Desc',
  'Viol_Unit',
] as const;
/** The SMS Input – Crash columns the carriers build reads (a subset of dataset 4wxs-vbns, README). */
const CRASH_COLUMNS = [
  'Report_Number',
  'Report_Seq_No',
  'DOT_Number',
  'Report_Date',
  'Report_State',
  'Fatalities',
  'Injuries',
  'Tow_Away',
  'Hazmat_Released',
  'Severity_Weight',
  'Time_Weight',
  'Not_Preventable',
] as const;

/** Flags are booleans, written `Y`/`N` in the txt form and `true`/`false` in the CSV form; everything else is
 * text (OP_OTHER too: `N` or free text such as `TOW TRUCK`, README §1). */
type CensusRecord = Record<CensusField, string | boolean>;

function toCensusTxtLine(r: CensusRecord): string {
  let line = '';
  for (let i = 0; i < CENSUS_FIELDS.length; i++) {
    const v = r[CENSUS_FIELDS[i]!];
    const text = typeof v === 'boolean' ? (v ? 'Y' : 'N') : v.replaceAll('"', '""');
    line += i === 0 ? `"${text}"` : `,"${text}"`;
  }
  return `${line}\r\n`;
}

function toCensusCsvLine(r: CensusRecord): string {
  let line = '';
  for (let i = 0; i < CENSUS_CSV_FIELDS.length; i++) {
    const v = r[CENSUS_CSV_FIELDS[i]!];
    const text = typeof v === 'boolean' ? (v ? 'true' : 'false') : toCsvField(v);
    line += i === 0 ? text : `,${text}`;
  }
  return `${line}\n`;
}

const bool = (b: boolean) => (b ? 'true' : 'false');

// ---------------------------------------------------------------------------------------------------------------
// Dates. Day numbers count UTC days since 1970-01-01; FMCSA writes DD-MON-YY (README §1).

const DAY_MS = 86_400_000;
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const FIRST_ADD_DATE = '1974-06-01';

function toDay(iso: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const day = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS : NaN;
  if (!m || !Number.isInteger(day) || new Date(day * DAY_MS).toISOString().slice(0, 10) !== iso)
    throw new Error(`demo: asOf must be an ISO date (YYYY-MM-DD), got ${iso}`);
  return day;
}

/** The same day of the month `months` earlier, clamped to the month's length (31 Oct − 6 months = 30 Apr). */
function toMonthsBefore(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last)) / DAY_MS;
}

const yearOf = (day: number) => new Date(day * DAY_MS).getUTCFullYear();

/** At most ~20k distinct days (1974 to asOf), so the cache stays small. */
const ddMonYy: string[] = [];
function toDdMonYy(day: number): string {
  let s = ddMonYy[day];
  if (s === undefined) {
    const d = new Date(day * DAY_MS);
    s = `${String(d.getUTCDate()).padStart(2, '0')}-${MONTH_NAMES[d.getUTCMonth()]}-${String(d.getUTCFullYear() % 100).padStart(2, '0')}`;
    ddMonYy[day] = s;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// Reference tables: real places, invented everything else.

interface Place {
  city: string;
  state: string;
  country: 'US' | 'CA' | 'MX';
  /** US: 3-digit zip prefixes; CA: forward sortation areas; MX: 2-digit postal prefixes. */
  zip: readonly string[];
  area: readonly string[];
  weight: number;
}

const us = (city: string, state: string, zip: string[], area: string[], weight: number): Place => ({
  city,
  state,
  country: 'US',
  zip,
  area,
  weight,
});

const PLACES: readonly Place[] = [
  us('LOS ANGELES', 'CA', ['900', '900'], ['213', '323'], 5),
  us('FONTANA', 'CA', ['923'], ['909'], 3),
  us('FRESNO', 'CA', ['937'], ['559'], 2),
  us('SACRAMENTO', 'CA', ['958'], ['916'], 2),
  us('STOCKTON', 'CA', ['952'], ['209'], 2),
  us('SAN DIEGO', 'CA', ['921'], ['619'], 1.5),
  us('HOUSTON', 'TX', ['770'], ['713', '281'], 5),
  us('DALLAS', 'TX', ['752'], ['214', '972'], 4),
  us('LAREDO', 'TX', ['780'], ['956'], 2),
  us('SAN ANTONIO', 'TX', ['782'], ['210'], 2),
  us('EL PASO', 'TX', ['799'], ['915'], 2),
  us('LUBBOCK', 'TX', ['794'], ['806'], 1),
  us('MIAMI', 'FL', ['331'], ['305', '786'], 3),
  us('ORLANDO', 'FL', ['328'], ['407'], 2),
  us('JACKSONVILLE', 'FL', ['322'], ['904'], 2),
  us('TAMPA', 'FL', ['336'], ['813'], 1.5),
  us('BROOKLYN', 'NY', ['112'], ['718', '347'], 2),
  us('BUFFALO', 'NY', ['142'], ['716'], 1),
  us('ALBANY', 'NY', ['122'], ['518'], 0.8),
  us('CHICAGO', 'IL', ['606'], ['312', '773'], 3),
  us('JOLIET', 'IL', ['604'], ['815'], 2),
  us('ATLANTA', 'GA', ['303'], ['404', '678'], 3),
  us('SAVANNAH', 'GA', ['314'], ['912'], 1),
  us('CHARLOTTE', 'NC', ['282'], ['704'], 2),
  us('GREENSBORO', 'NC', ['274'], ['336'], 1),
  us('COLUMBUS', 'OH', ['432'], ['614'], 2),
  us('TOLEDO', 'OH', ['436'], ['419'], 1),
  us('PITTSBURGH', 'PA', ['152'], ['412'], 1),
  us('HARRISBURG', 'PA', ['171'], ['717'], 1),
  us('ALLENTOWN', 'PA', ['181'], ['610'], 1),
  us('NASHVILLE', 'TN', ['372'], ['615'], 2),
  us('MEMPHIS', 'TN', ['381'], ['901'], 2),
  us('INDIANAPOLIS', 'IN', ['462'], ['317'], 2),
  us('GARY', 'IN', ['464'], ['219'], 1),
  us('DETROIT', 'MI', ['482'], ['313'], 2),
  us('GRAND RAPIDS', 'MI', ['495'], ['616'], 1),
  us('MINNEAPOLIS', 'MN', ['554'], ['612'], 1),
  us('ST CLOUD', 'MN', ['563'], ['320'], 1),
  us('KANSAS CITY', 'MO', ['641'], ['816'], 1),
  us('SPRINGFIELD', 'MO', ['658'], ['417'], 1),
  us('OMAHA', 'NE', ['681'], ['402'], 1),
  us('DENVER', 'CO', ['802'], ['303', '720'], 2),
  us('PHOENIX', 'AZ', ['850'], ['602', '480'], 2),
  us('TUCSON', 'AZ', ['857'], ['520'], 1),
  us('LAS VEGAS', 'NV', ['891'], ['702'], 1),
  us('SALT LAKE CITY', 'UT', ['841'], ['801'], 1),
  us('SEATTLE', 'WA', ['981'], ['206'], 1),
  us('YAKIMA', 'WA', ['989'], ['509'], 1),
  us('PORTLAND', 'OR', ['972'], ['503'], 1),
  us('BOISE', 'ID', ['837'], ['208'], 1),
  us('BILLINGS', 'MT', ['591'], ['406'], 0.8),
  us('FARGO', 'ND', ['581'], ['701'], 0.8),
  us('SIOUX FALLS', 'SD', ['571'], ['605'], 0.8),
  us('DES MOINES', 'IA', ['503'], ['515'], 1),
  us('MILWAUKEE', 'WI', ['532'], ['414'], 1),
  us('GREEN BAY', 'WI', ['543'], ['920'], 1),
  us('LOUISVILLE', 'KY', ['402'], ['502'], 1),
  us('BIRMINGHAM', 'AL', ['352'], ['205'], 1),
  us('JACKSON', 'MS', ['392'], ['601'], 1),
  us('LITTLE ROCK', 'AR', ['722'], ['501'], 1),
  us('NEW ORLEANS', 'LA', ['701'], ['504'], 1),
  us('SHREVEPORT', 'LA', ['711'], ['318'], 0.8),
  us('OKLAHOMA CITY', 'OK', ['731'], ['405'], 1),
  us('TULSA', 'OK', ['741'], ['918'], 1),
  us('WICHITA', 'KS', ['672'], ['316'], 1),
  us('ALBUQUERQUE', 'NM', ['871'], ['505'], 1),
  us('COLUMBIA', 'SC', ['292'], ['803'], 1),
  us('RICHMOND', 'VA', ['232'], ['804'], 1),
  us('BALTIMORE', 'MD', ['212'], ['410'], 1),
  us('CHARLESTON', 'WV', ['253'], ['304'], 0.6),
  us('WILMINGTON', 'DE', ['198'], ['302'], 0.5),
  us('ANCHORAGE', 'AK', ['995'], ['907'], 0.3),
  us('HONOLULU', 'HI', ['968'], ['808'], 0.3),
  // Zip codes with leading zeros (New Jersey, New England, Puerto Rico): kept as text (README §1).
  us('NEWARK', 'NJ', ['071'], ['973'], 2),
  us('EDISON', 'NJ', ['088'], ['732'], 1),
  us('ELIZABETH', 'NJ', ['072'], ['908'], 1),
  us('CAMDEN', 'NJ', ['081'], ['856'], 0.5),
  us('BOSTON', 'MA', ['021'], ['617'], 1),
  us('WORCESTER', 'MA', ['016'], ['508'], 1),
  us('SPRINGFIELD', 'MA', ['011'], ['413'], 0.5),
  us('HARTFORD', 'CT', ['061'], ['860'], 1),
  us('BRIDGEPORT', 'CT', ['066'], ['203'], 0.5),
  us('PROVIDENCE', 'RI', ['029'], ['401'], 0.5),
  us('MANCHESTER', 'NH', ['031'], ['603'], 0.5),
  us('PORTLAND', 'ME', ['041'], ['207'], 0.5),
  us('BANGOR', 'ME', ['044'], ['207'], 0.3),
  us('BURLINGTON', 'VT', ['054'], ['802'], 0.3),
  us('SAN JUAN', 'PR', ['009'], ['787'], 0.3),
  // README §1: phy_country includes CA and MX.
  { city: 'SURREY', state: 'BC', country: 'CA', zip: ['V3S', 'V4N'], area: ['604'], weight: 0.4 },
  { city: 'MISSISSAUGA', state: 'ON', country: 'CA', zip: ['L5T', 'L4W'], area: ['905'], weight: 0.4 },
  { city: 'WINNIPEG', state: 'MB', country: 'CA', zip: ['R2C'], area: ['204'], weight: 0.2 },
  { city: 'MONTERREY', state: 'NL', country: 'MX', zip: ['64'], area: ['818'], weight: 0.3 },
  { city: 'TIJUANA', state: 'BC', country: 'MX', zip: ['22'], area: ['664'], weight: 0.3 },
  { city: 'CIUDAD JUAREZ', state: 'CH', country: 'MX', zip: ['32'], area: ['656'], weight: 0.3 },
];
const PLACE_WEIGHTS: readonly (readonly [Place, number])[] = PLACES.map((p) => [p, p.weight]);
const US_STATES = [...new Set(PLACES.filter((p) => p.country === 'US').map((p) => p.state))];
/** FMCSA oversight offices for carriers based abroad: the border states. */
const BORDER_OIC: Record<string, readonly string[]> = { CA: ['WA', 'MI', 'NY', 'ND'], MX: ['TX', 'CA', 'AZ'] };
const LEADING_ZERO_PLACE = PLACES.find((p) => p.city === 'EDISON')!;
const TEXAS_PLACE = PLACES.find((p) => p.city === 'HOUSTON')!;

const STREETS = [
  'MAIN',
  'OAK',
  'MAPLE',
  'CEDAR',
  'PINE',
  'ELM',
  'WASHINGTON',
  'LINCOLN',
  'JEFFERSON',
  'MARKET',
  'RAILROAD',
  'DEPOT',
  'AIRPORT',
  'INDUSTRIAL',
  'COMMERCE',
  'ENTERPRISE',
  'RIVER',
  'LAKE',
  'HILLCREST',
  'SUNSET',
  'MILL',
  'CHURCH',
  'SCHOOL',
  'PARK',
  'HIGHLAND',
  'VALLEY',
  'MEADOW',
  'FOREST',
  'WILLOW',
  'DOGWOOD',
  'MAGNOLIA',
  'COUNTY ROAD 12',
  'STATE ROUTE 9',
  'FM 1960',
  'HIGHWAY 59',
  'OLD MILL',
  'FREIGHT',
  'DISTRIBUTION',
  'LOGISTICS',
];
const STREET_TYPES = ['ST', 'AVE', 'RD', 'DR', 'BLVD', 'LN', 'PKWY', 'WAY', 'CT', 'HWY', 'PL'];
const DIRECTIONS = ['N ', 'S ', 'E ', 'W ', '', '', '', '', '', ''];

const FIRST_NAMES = [
  'JOSE',
  'JUAN',
  'MARIA',
  'JAMES',
  'JOHN',
  'ROBERT',
  'MICHAEL',
  'DAVID',
  'CARLOS',
  'LUIS',
  'MIGUEL',
  'JESUS',
  'WILLIAM',
  'RICHARD',
  'JOSEPH',
  'THOMAS',
  'CHRISTOPHER',
  'DANIEL',
  'MOHAMMED',
  'ALI',
  'GURPREET',
  'HARPREET',
  'SERGEI',
  'OLEKSANDR',
  'IVAN',
  'KWAME',
  'TYRONE',
  'DARNELL',
  'KEVIN',
  'BRIAN',
  'JASON',
  'TERRY',
  'RANDY',
  'BILLY',
  'DENNIS',
  'LARRY',
  'HECTOR',
  'RAFAEL',
  'FRANCISCO',
  'ANTHONY',
  'MARK',
  'STEVEN',
  'PAUL',
  'ANDREW',
  'JOSHUA',
  'RYAN',
  'LINDA',
  'PATRICIA',
  'ANGELA',
  'ROSA',
  'TAMMY',
  'DONNA',
  'SHAWN',
  'ERIC',
  'GREGORY',
  'JAMAL',
  'AMIR',
];
const LAST_NAMES = [
  'GARCIA',
  'MARTINEZ',
  'RODRIGUEZ',
  'HERNANDEZ',
  'LOPEZ',
  'GONZALEZ',
  'SMITH',
  'JOHNSON',
  'WILLIAMS',
  'BROWN',
  'JONES',
  'MILLER',
  'DAVIS',
  'WILSON',
  'ANDERSON',
  'TAYLOR',
  'THOMAS',
  'MOORE',
  'JACKSON',
  'MARTIN',
  'LEE',
  'THOMPSON',
  'WHITE',
  'HARRIS',
  'CLARK',
  'LEWIS',
  'ROBINSON',
  'WALKER',
  'YOUNG',
  'ALLEN',
  'KING',
  'WRIGHT',
  'SCOTT',
  'SINGH',
  'KAUR',
  'NGUYEN',
  'TRAN',
  'PATEL',
  'KOVALENKO',
  'PETROV',
  'OKAFOR',
  'MENDOZA',
  'RAMIREZ',
  'FLORES',
  'RIVERA',
  'TORRES',
  'CRUZ',
  'MORALES',
  'ORTIZ',
  'REYES',
  'GUTIERREZ',
  'CHAVEZ',
  'RAMOS',
  'VARGAS',
  'CASTILLO',
  'JIMENEZ',
  'MORENO',
  'ROMERO',
  'HERRERA',
  'MEDINA',
  'AGUILAR',
  'SANCHEZ',
  'DIAZ',
  'PEREZ',
  'BUTLER',
  'BAKER',
  'COOPER',
  'MITCHELL',
  'CARTER',
  'PHILLIPS',
  'EVANS',
  'TURNER',
  'PARKER',
  'COLLINS',
  'EDWARDS',
  'STEWART',
  'MURPHY',
  'COOK',
  'ROGERS',
  'MORGAN',
  'BELL',
  'BAILEY',
  'HOLT',
  'HUGHES',
  'PRICE',
  'MYERS',
  'LONG',
  'FOSTER',
  'DUNCAN',
  'HAYES',
  'BRYANT',
  'WEAVER',
  'HOFFMAN',
  'SCHMIDT',
  'MUELLER',
  'NOVAK',
  'OLSON',
  'LARSON',
  'BERG',
];
const PLACE_WORDS = [
  'BLUE RIDGE',
  'RED RIVER',
  'LONE STAR',
  'GOLDEN STATE',
  'GREAT LAKES',
  'ROCKY MOUNTAIN',
  'EAGLE',
  'FALCON',
  'PATRIOT',
  'LIBERTY',
  'SUMMIT',
  'PIONEER',
  'FRONTIER',
  'CROSSROADS',
  'PRAIRIE',
  'SILVER',
  'IRON HORSE',
  'SUNBELT',
  'COASTAL',
  'MIDWEST',
  'TRI-STATE',
  'NORTHERN',
  'SOUTHERN',
  'HEARTLAND',
  'PEACH STATE',
  'BAYOU',
  'CASCADE',
  'MESA',
  'GRANITE',
  'KEYSTONE',
  'EMPIRE',
  'PACIFIC',
  'ATLANTIC',
  'GULF COAST',
  'BIG SKY',
  'TWIN CITIES',
  'OZARK',
  'APPALACHIAN',
  'DESERT',
  'CANYON',
  'SEQUOIA',
  'MAGNOLIA',
  'CYPRESS',
  'HICKORY',
  'WILLOW CREEK',
  'STONEBRIDGE',
  'FOX RUN',
  'BLACK DIAMOND',
  'WHITE OAK',
  'NORTH STAR',
  'SOUTHWIND',
  'THUNDERBIRD',
  'ROADRUNNER',
  'MUSTANG',
  'TIMBERLINE',
  'HIGH PLAINS',
  'RIVERBEND',
  'PINNACLE',
  'VANGUARD',
  'SENTINEL',
  'MERIDIAN',
  'HORIZON',
  'ALLIANCE',
];
const FREIGHT_WORDS = [
  'FREIGHT',
  'TRUCKING',
  'TRANSPORT',
  'LOGISTICS',
  'EXPRESS',
  'CARRIERS',
  'HAULING',
  'TRANSPORTATION',
  'LINES',
  'DELIVERY',
  'CARTAGE',
  'FREIGHTWAYS',
  'XPRESS',
];
const PRIVATE_WORDS = [
  'CONSTRUCTION',
  'LANDSCAPING',
  'FARMS',
  'PLUMBING',
  'ELECTRIC',
  'ROOFING',
  'PAVING',
  'CONCRETE',
  'SAND & GRAVEL',
  'LUMBER',
  'DAIRY',
  'PRODUCE',
  'OILFIELD SERVICES',
  'EXCAVATING',
  'NURSERY',
  'HEATING & AIR',
  'SUPPLY',
  'BUILDERS',
];
const PASSENGER_WORDS = [
  'COACH LINES',
  'TOURS',
  'CHARTER',
  'MOTORCOACH',
  'SHUTTLE',
  'BUS COMPANY',
  'TRANSIT',
  'TRAVEL',
];
const HAZMAT_WORDS = ['PETROLEUM', 'FUEL', 'PROPANE', 'CHEMICAL', 'TANK LINES', 'ENERGY', 'OIL', 'GAS SERVICE'];

/**
 * The words of real carrier names have a long tail: a real census of 1,000 carriers already holds about
 * 1,800 distinct name words, four in five of them used once, so at FMCSA's 2 million carriers most words
 * are rare and a few (LLC, TRUCKING, common surnames) are everywhere. A name slot takes a word of its short
 * list part of the time and otherwise one of up to TAIL_WORDS made-up surnames, drawn with probability
 * about 1/k for the k-th (Zipf's law, from the 20th on), so the demo's vocabulary grows with its size as a real one does.
 * One draw of the stream per slot, as a plain pick takes.
 */
const TAIL_WORDS = 1_500_000;
const TAIL_FIRST = 20;
const TAIL_SYLLABLES = [
  'BA',
  'KE',
  'LO',
  'MI',
  'RU',
  'DA',
  'NE',
  'SO',
  'TI',
  'VA',
  'GRO',
  'BEL',
  'HAR',
  'MOR',
  'KIN',
  'DRE',
  'WAL',
  'TON',
  'SHA',
  'FEL',
  'CAR',
  'LIN',
  'PER',
  'QUI',
  'ZE',
  'YO',
  'BRA',
  'STE',
  'CHU',
  'NO',
  'RI',
  'GA',
];
const TAIL_ENDINGS = ['', 'SON', 'ER', 'EZ', 'OV', 'TON', 'LEY', 'MAN', 'SKI', 'INI', 'ETTE', 'BURG'];

/** The made-up surname number k (1-based): two or three syllables and an ending, all fixed by k. */
export function tailWord(k: number): string {
  let h = Math.imul(k ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  let word = '';
  for (let i = 0, n = 1 + (k % 2); i < n; i++) {
    word += TAIL_SYLLABLES[h % TAIL_SYLLABLES.length]!;
    h = Math.floor(h / TAIL_SYLLABLES.length);
  }
  // The number itself, spelled in the ending and a last syllable, keeps two values of k apart.
  return (
    word +
    TAIL_SYLLABLES[Math.floor(k / TAIL_ENDINGS.length) % TAIL_SYLLABLES.length]! +
    TAIL_ENDINGS[k % TAIL_ENDINGS.length]!
  );
}

/** A word for a name slot: from `list` with probability `listShare`, else from the long tail. */
function nameWord(rng: Rng, list: readonly string[], listShare: number): string {
  const u = rng.next();
  if (u < listShare) return list[Math.floor((u / listShare) * list.length)]!;
  // Log-uniform over [TAIL_FIRST, TAIL_WORDS): the commonest made-up word is as common as a common surname.
  return tailWord(
    Math.floor(TAIL_FIRST * Math.exp(((u - listShare) / (1 - listShare)) * Math.log(TAIL_WORDS / TAIL_FIRST))),
  );
}
const firstName = (rng: Rng) => nameWord(rng, FIRST_NAMES, 0.6);
const lastName = (rng: Rng) => nameWord(rng, LAST_NAMES, 0.3);
const placeWord = (rng: Rng) => nameWord(rng, PLACE_WORDS, 0.4);
const SUFFIXES: readonly (readonly [string, number])[] = [
  ['LLC', 55],
  ['INC', 25],
  ['CORP', 5],
  ['CO', 3],
  ['LTD', 2],
  ['', 10],
];
const EMAIL_DOMAINS = ['GMAIL.COM', 'YAHOO.COM', 'HOTMAIL.COM', 'OUTLOOK.COM', 'AOL.COM', 'ICLOUD.COM'];
const OP_OTHER_TEXT = [
  'FARM',
  'TOW TRUCK',
  'SCHOOL BUS CONTRACTOR',
  'APPLYING FOR MC',
  'CONSTRUCTION',
  'OWN EQUIPMENT',
];

// Vehicles: make codes as inspection reports abbreviate them, with a plausible VIN manufacturer prefix.
type Make = readonly [code: string, wmi: string];
const TRACTOR_MAKES: readonly Make[] = [
  ['FRHT', '1FU'],
  ['KENW', '1XK'],
  ['PTRB', '1XP'],
  ['VOLV', '4V4'],
  ['INTL', '3HS'],
  ['MACK', '1M1'],
  ['WSTR', '5KJ'],
];
const STRAIGHT_MAKES: readonly Make[] = [
  ['FRHT', '1FV'],
  ['INTL', '1HT'],
  ['ISU', 'JAL'],
  ['HINO', '5PV'],
  ['FORD', '1FD'],
  ['CHEV', '1GB'],
  ['RAM', '3C7'],
];
const BUS_MAKES: readonly Make[] = [
  ['PREV', '2PC'],
  ['MCI', '1M8'],
  ['VANH', 'YE2'],
  ['BLUE', '1BA'],
  ['THOM', '4UZ'],
  ['FORD', '1FD'],
];
const TRAILER_MAKES: readonly Make[] = [
  ['GDAN', '1GR'],
  ['UTIL', '1UY'],
  ['WABS', '1JJ'],
  ['HYUN', '3H3'],
  ['STOU', '1DW'],
  ['FONT', '13N'],
];
const TANK_MAKES: readonly Make[] = [
  ['HEIL', '5HT'],
  ['POLR', '1PM'],
  ['BRKR', '1B9'],
  ['TRIN', '4TV'],
];
const VIN_CHARS = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

// ---------------------------------------------------------------------------------------------------------------
// Violations: real 49 CFR cites with the severity weights and violation groups of the SMS tables (methodology
// §B.3: 1–10 by crash-risk association; OOS adds 2). `oos` is the chance the cite put the driver or vehicle
// out of service.

const BASIC_DESC = {
  unsafe: 'Unsafe Driving',
  hos: 'Hours-of-Service Compliance',
  fitness: 'Driver Fitness',
  substances: 'Controlled Substances/Alcohol',
  maintenance: 'Vehicle Maintenance',
  hazmat: 'Hazardous Materials Compliance',
} as const;
type ViolBasic = keyof typeof BASIC_DESC;

interface ViolationKind {
  code: string;
  section: string;
  group: string;
  severity: number;
  oos: number;
  weight: number;
}
const v = (
  code: string,
  section: string,
  group: string,
  severity: number,
  oos: number,
  weight: number,
): ViolationKind => ({ code, section, group, severity, oos, weight });

const VIOLATIONS: Record<ViolBasic, readonly ViolationKind[]> = {
  unsafe: [
    v('3922-SLLS2', 'State/Local Laws - Speeding 6-10 miles per hour over the speed limit', 'Speeding 2', 4, 0, 30),
    v('3922-SLLS3', 'State/Local Laws - Speeding 11-14 miles per hour over the speed limit', 'Speeding 3', 7, 0, 14),
    v(
      '3922-SLLS4',
      'State/Local Laws - Speeding 15 or more miles per hour over the speed limit',
      'Speeding 4',
      10,
      0,
      6,
    ),
    v('39216', 'Failing to use seat belt while operating CMV', 'Seat Belt', 7, 0, 20),
    v('3922-SLLFC', 'State/Local Laws - Following too close', 'Dangerous Driving', 5, 0, 8),
    v('3922-SLLLC', 'State/Local Laws - Improper lane change', 'Dangerous Driving', 5, 0, 10),
    v('3922-SLLT', 'State/Local Laws - Failure to obey traffic control device', 'Dangerous Driving', 5, 0, 8),
    v('39280A', 'Using a hand-held mobile telephone while operating a CMV', 'Phone Call', 10, 0, 4),
  ],
  hos: [
    v('3958A-ELD', 'No record of duty status (ELD Required)', 'Incomplete/Wrong Log', 5, 0.3, 18),
    v('3958E', 'False report of drivers record of duty status', 'False Log', 7, 0.2, 10),
    v('3953A2-PROP', 'Driving beyond 14 hour duty period (Property)', 'Driving Hours', 7, 0.2, 14),
    v(
      '3953A3-PROP',
      'Driving beyond 11 hour driving limit in a 14 hour period (Property)',
      'Driving Hours',
      7,
      0.2,
      10,
    ),
    v('3958F1', "Driver's record of duty status not current", 'Incomplete/Wrong Log', 5, 0.03, 20),
    v('3958K2', "Failing to retain previous 7 days' records of duty status", 'Incomplete/Wrong Log', 5, 0, 10),
    v('39522H4', 'Driver failed to maintain ELD instruction sheet', 'Other Log/Form & Manner', 1, 0, 18),
  ],
  fitness: [
    v('39141A-F', 'Driver not in possession of medical certificate', 'Medical Certificate', 1, 0, 30),
    v('39145B', "Expired medical examiner's certificate", 'Medical Certificate', 1, 0, 12),
    v('39111B2', 'Non-English speaking driver', 'General Driver Qualification', 4, 0.1, 10),
    v('38323A2', 'Operating a CMV without a CDL', 'No Valid CDL', 8, 0.5, 8),
    v('39111', 'Unqualified driver', 'General Driver Qualification', 4, 0.05, 16),
    v('38351A-SUS', 'Driving a CMV while CDL is suspended, in the State of licensure', 'Suspended CDL', 10, 0.6, 6),
  ],
  substances: [
    v('3924A', 'Driver uses or is in possession of drugs', 'Drugs', 10, 0.5, 40),
    v('3925A2', 'Possession, use or under the influence of alcohol within 4 hours of duty', 'Alcohol', 10, 0.6, 40),
    v('3925C2', 'Violating an out-of-service order pursuant to 392.5(a)/(b)', 'Alcohol', 10, 0.6, 20),
  ],
  maintenance: [
    v('3939A', 'Inoperable required lamp', 'Lighting', 6, 0.07, 30),
    v('3939TS', 'Inoperative turn signal', 'Lighting', 6, 0.25, 8),
    v('39347E', 'Clamp or roto-chamber type brake(s) out of adjustment', 'Brakes Out of Adjustment', 4, 0.33, 16),
    v('39345D', 'Brake connections with leaks, constrictions', 'Brakes, All Others', 4, 0.4, 8),
    v('39375C', 'Tire-other tread depth less than 2/32 of inch', 'Tires', 8, 0.4, 12),
    v('39375A3', 'Tire-flat and/or audible air leak', 'Tires', 8, 0.75, 6),
    v('39395A', 'No, discharged, or unsecured fire extinguisher', 'Emergency Equipment', 2, 0, 12),
    v('39617C', 'Operating a CMV without proof of a periodic inspection', 'Inspection Reports', 4, 0, 14),
    v('3963A1', 'Inspection, repair and maintenance of parts and accessories', 'Brakes, All Others', 4, 0.15, 10),
    v('39311LR', 'Lower retroreflective sheeting missing or not as required', 'Reflective Sheeting', 3, 0, 8),
    v('39360C', 'Damaged or discolored windshield', 'Windshield/Glass/Markings', 1, 0, 8),
    v('393100A', 'Failure to prevent cargo shifting', 'Cargo-Related', 7, 0.4, 4),
  ],
  hazmat: [
    v('177817E', 'Shipping paper accessibility', 'HM Shipping Papers', 5, 0.1, 30),
    v('172504A', 'Vehicle not placarded as required', 'HM Placarding', 8, 0.4, 16),
    v('177834A', 'Package not secure in vehicle', 'HM Package Securement', 10, 0.5, 14),
    v('172602', 'No emergency response information', 'HM Emergency Response Information', 5, 0.1, 20),
    v('180407A', 'Cargo tank not tested or inspected as required', 'HM Cargo Tank', 10, 0.3, 6),
  ],
};
const VIOLATION_WEIGHTS = Object.fromEntries(
  Object.entries(VIOLATIONS).map(([basic, kinds]) => [basic, kinds.map((k) => [k, k.weight] as const)]),
) as unknown as Record<ViolBasic, readonly (readonly [ViolationKind, number])[]>;

/** How often each BASIC's cites turn up among an inspection's violations, when the inspection is relevant to it. */
const BASIC_SHARE: Record<ViolBasic, number> = {
  maintenance: 60,
  hos: 14,
  unsafe: 9,
  fitness: 9,
  substances: 0.25,
  hazmat: 14,
};

/** Inspection levels (CVSA): 1 full, 2 walk-around, 3 driver-only, 4 special, 5 vehicle-only, 6 radioactive. */
const DRIVER_LEVELS = new Set([1, 2, 3, 6]);
const VEHICLE_LEVELS = new Set([1, 2, 5, 6]);
/** Expected violations relative to a level 2 inspection; level 4 is a special study with no BASIC cites. */
const LEVEL_VIOLATIONS = [0, 1.35, 1, 0.65, 0, 1.2, 0.4];
const LEVELS: readonly (readonly [number, number])[] = [
  [1, 27],
  [2, 33],
  [3, 35.5],
  [4, 0.5],
  [5, 4],
];
const HAZMAT_LEVELS: readonly (readonly [number, number])[] = [
  [1, 32],
  [2, 30],
  [3, 30],
  [4, 0.5],
  [5, 6],
  [6, 1.5],
];

// ---------------------------------------------------------------------------------------------------------------
// Model constants, tuned so scale 700 gives about 7 M inspections, 10 M violations and 150 k crashes.

/** Truncated Pareto for fleet sizes: about half the carriers run one power unit, a few run thousands. */
const FLEET_ALPHA = 1.1;
const FLEET_MAX = 8000;
const INSPECTIONS_PER_UNIT = 0.71;
const INSPECTION_EXPONENT = 0.9;
/** Share of inspections with no violation outright (before the count draw). */
const CLEAN_INSPECTION = 0.33;
const VIOLATIONS_PER_DIRTY = 2.26;
const CRASHES_PER_INSPECTION = 0.021;
const OUTLIER_POWER_UNITS = 45_001;
const OUTLIER_DRIVERS = 2;

type Kind = 'forhire' | 'private' | 'exempt' | 'passenger' | 'hazmat' | 'government' | 'mail';
const KINDS: readonly (readonly [Kind, number])[] = [
  ['forhire', 45],
  ['private', 38],
  ['exempt', 4.5],
  ['passenger', 1.6],
  ['hazmat', 3.6],
  ['government', 1.2],
  ['mail', 0.5],
];

/** Share of each kind that runs interstate (carrier_operation A); the sample has A 35 %, B 2 %, C 64 % (README §1). */
const INTERSTATE_SHARE: Record<Kind, number> = {
  forhire: 0.6,
  private: 0.15,
  exempt: 0.3,
  passenger: 0.65,
  hazmat: 0.5,
  government: 0,
  mail: 0.7,
};
/** Relative inspection exposure by kind: interstate for-hire trucks pass the most roadside checks. */
const INSPECTION_RATE: Record<Kind, number> = {
  forhire: 1.5,
  private: 0.6,
  exempt: 0.9,
  passenger: 1,
  hazmat: 1.3,
  government: 0.2,
  mail: 1.2,
};
const INTRASTATE_FOR_HIRE_RATE = 0.9;

type Plant =
  | 'leadingZero'
  | 'bigFleet'
  | 'passenger'
  | 'zeroMileage'
  | 'hazmat'
  | 'outlier'
  | 'emptyPowerUnits'
  | 'clean';
/** Where each planted carrier sits, as a fraction of the DOT-ordered list. */
const PLANTS: readonly (readonly [Plant, number])[] = [
  ['leadingZero', 0.05],
  ['bigFleet', 0.12],
  ['passenger', 0.21],
  ['zeroMileage', 0.33],
  ['hazmat', 0.45],
  ['outlier', 0.58],
  ['emptyPowerUnits', 0.71],
  ['clean', 0.84],
];

// ---------------------------------------------------------------------------------------------------------------
// Small draws.

function poisson(rng: Rng, lambda: number): number {
  if (lambda <= 0) return 0;
  if (lambda > 30) return Math.max(0, Math.round(rng.normal(lambda, Math.sqrt(lambda))));
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = rng.next();
  while (p > limit) {
    k++;
    p *= rng.next();
  }
  return k;
}

function fleetSize(rng: Rng): number {
  // Inverse CDF of a Pareto(α) truncated at FLEET_MAX: P(X > x) ∝ x^−α − FLEET_MAX^−α.
  const tail = 1 - FLEET_MAX ** -FLEET_ALPHA;
  return Math.min(FLEET_MAX, Math.floor((1 - rng.next() * tail) ** (-1 / FLEET_ALPHA)));
}

const digits = (rng: Rng, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += String(rng.int(0, 9));
  return s;
};
const chars = (rng: Rng, alphabet: string, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rng.int(0, alphabet.length - 1)];
  return s;
};

function toZip(rng: Rng, place: Place): string {
  const prefix = rng.pick(place.zip);
  if (place.country === 'CA') return `${prefix} ${rng.int(0, 9)}${chars(rng, PLATE_LETTERS, 1)}${rng.int(0, 9)}`;
  if (place.country === 'MX') return prefix + digits(rng, 3);
  const zip = prefix + digits(rng, 2);
  return rng.chance(0.12) ? `${zip}-${digits(rng, 4)}` : zip;
}

const toPhone = (rng: Rng, place: Place) => `(${rng.pick(place.area)}) ${rng.int(200, 999)}-${digits(rng, 4)}`;

function toStreet(rng: Rng): string {
  const street = `${rng.int(1, 29999)} ${rng.pick(DIRECTIONS)}${rng.pick(STREETS)} ${rng.pick(STREET_TYPES)}`;
  const r = rng.next();
  // A suite now and then, sometimes after a comma, so minimal quoting has something to quote.
  return r < 0.03 ? `${street}, STE ${rng.int(1, 400)}` : r < 0.08 ? `${street} SUITE ${rng.int(100, 900)}` : street;
}

const person = (rng: Rng) =>
  `${firstName(rng)}${rng.chance(0.3) ? ` ${chars(rng, PLATE_LETTERS, 1)}` : ''} ${lastName(rng)}`;

function toLegalName(rng: Rng, kind: Kind, units: number): string {
  const suffix = () => {
    const s = rng.pickWeighted(SUFFIXES);
    // Some filers put a comma before the suffix: `SMITH TRUCKING, INC`.
    return s === '' ? '' : rng.chance(0.08) ? `, ${s}` : ` ${s}`;
  };
  switch (kind) {
    case 'passenger':
      return rng.chance(0.2)
        ? `${rng.pick(['FIRST BAPTIST CHURCH OF', 'GRACE COMMUNITY CHURCH OF', 'ST PAUL LUTHERAN CHURCH OF'])} ${rng.pick(PLACES).city}`
        : `${placeWord(rng)} ${rng.pick(PASSENGER_WORDS)}${suffix()}`;
    case 'hazmat':
      return `${rng.chance(0.5) ? lastName(rng) : placeWord(rng)} ${rng.pick(HAZMAT_WORDS)}${suffix()}`;
    case 'government':
      return rng.chance(0.7) ? `CITY OF ${rng.pick(PLACES).city}` : `${rng.pick(PLACES).city} COUNTY ROAD DEPARTMENT`;
    case 'private':
      return rng.chance(0.15)
        ? person(rng)
        : `${rng.chance(0.6) ? lastName(rng) : placeWord(rng)} ${rng.pick(PRIVATE_WORDS)}${suffix()}`;
    default: {
      // Owner-operators often file under their own name (README §1 example: a person's name, 1 unit).
      if (units <= 2 && rng.chance(0.35)) return person(rng);
      const r = rng.next();
      if (r < 0.45) return `${placeWord(rng)} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
      if (r < 0.65) return `${firstName(rng)} ${lastName(rng)} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
      if (r < 0.8)
        return `${lastName(rng)} ${rng.pick(['& SONS', 'BROTHERS', 'FAMILY'])} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
      return `${chars(rng, PLATE_LETTERS, 1)} & ${chars(rng, PLATE_LETTERS, 1)} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
    }
  }
}

function toEmail(rng: Rng, name: string): string {
  const local = name.replace(/[^A-Z0-9]/g, '').slice(0, 24) || 'DISPATCH';
  return `${local}${rng.chance(0.4) ? rng.int(1, 99) : ''}@${rng.pick(EMAIL_DOMAINS)}`;
}

function toVin(rng: Rng, wmi: string, modelYear: number): string {
  // Position 10 is the model-year code (A = 2010 … Y = 2030, skipping I, O, Q, U, Z; 2001–2009 are digits).
  const yearCode = modelYear >= 2010 ? ('ABCDEFGHJKLMNPRSTVWXY'[modelYear - 2010] ?? 'Y') : String(modelYear - 2000);
  return `${wmi}${chars(rng, VIN_CHARS, 6)}${yearCode}${chars(rng, VIN_CHARS, 7)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Streaming output.

/**
 * Rows are encoded straight into 1 MB buffers and handed to the stream when one fills: strings die young (no
 * list of pending lines survives into the old generation), and each write is one large syscall.
 */
const CHUNK_BYTES = 1 << 20;
/** No row comes near this; a UTF-8 character is at most 3 bytes per UTF-16 unit. */
const MAX_LINE_CHARS = 16 * 1024;

class LineSink {
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;
  private ready: Buffer[] = [];
  private error: Error | undefined;
  rows = 0;

  constructor(
    readonly path: string,
    private readonly stream: WriteStream,
  ) {
    stream.on('error', (e) => (this.error ??= e));
  }

  static async open(path: string, header: string): Promise<LineSink> {
    await mkdir(dirname(path), { recursive: true });
    const sink = new LineSink(path, createWriteStream(path));
    sink.append(header);
    return sink;
  }

  /** Appends one row (its line end included). */
  push(line: string): void {
    this.append(line);
    this.rows++;
  }

  private append(text: string): void {
    if (text.length > MAX_LINE_CHARS) throw new Error(`demo: a ${text.length}-character row for ${this.path}`);
    if (CHUNK_BYTES - this.pos < text.length * 3) {
      this.ready.push(this.buf.subarray(0, this.pos));
      this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
      this.pos = 0;
    }
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  /** At least one full chunk waits for the stream. */
  get full(): boolean {
    return this.ready.length > 0;
  }

  async flush(): Promise<void> {
    for (const chunk of this.ready.splice(0)) {
      if (this.error) throw this.error;
      if (!this.stream.write(chunk)) {
        if (this.error) throw this.error;
        await once(this.stream, 'drain');
      }
    }
  }

  async close(): Promise<void> {
    if (this.pos > 0) this.ready.push(this.buf.subarray(0, this.pos));
    this.pos = 0;
    await this.flush();
    this.stream.end();
    if (!this.stream.writableFinished) await once(this.stream, 'finish');
    if (this.error) throw this.error;
  }

  destroy(): void {
    this.stream.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One carrier.

interface Timeline {
  asOfDay: number;
  /** First day inside the window (the day after asOf − months). */
  firstDay: number;
  /** Time weight 3 from this day on (≤ 6 months old), 2 from `tw2` (≤ 12 months), else 1 (methodology §B.3). */
  tw3: number;
  tw2: number;
  months: number;
  asOfYear: number;
  /** The earliest add_date, given to the lowest DOT number. */
  addFirst: number;
}

interface Carrier {
  dot: number;
  kind: Kind;
  place: Place;
  operation: 'A' | 'B' | 'C';
  hazmat: boolean;
  passenger: boolean;
  /** Power units as reported; null when the census field is empty. */
  powerUnits: number | null;
  drivers: number;
  /** The fleet that really drives inspections (the outlier reports 45,001 units but runs 2 drivers). */
  activeFleet: number;
}

interface Vehicle {
  type: string;
  make: string;
  license: string;
  state: string;
  vin: string;
  decal: string;
  /** The six Unit_*2 fields, already joined with commas. */
  trailer: string;
}
const NO_TRAILER = ',,,,,';

function timeWeight(w: Timeline, day: number): number {
  return day >= w.tw3 ? 3 : day >= w.tw2 ? 2 : 1;
}

/** DOT rank → year added: FMCSA assigned numbers in order, so low numbers date from the 1970s (README §1 sees
 * add dates from 01-JUN-74) and half of today's carriers registered after 2010. The last point is asOf. */
const ADD_DATE_CURVE: readonly (readonly [number, number])[] = [
  [0, 1974.4],
  [0.04, 1990],
  [0.25, 2001],
  [0.5, 2010],
  [0.75, 2018],
];

function toAddDay(w: Timeline, rank: number, rng: Rng): number {
  const last = w.asOfDay - 1;
  const toDayOf = (year: number) =>
    Math.min(last, Date.UTC(Math.floor(year), 0, 1) / DAY_MS + Math.floor((year % 1) * 365));
  const points = [...ADD_DATE_CURVE.map(([r, y]) => [r, toDayOf(y)] as const), [1, last] as const];
  let day = last;
  for (let i = 1; i < points.length; i++) {
    const [r1, d1] = points[i]!;
    const [r0, d0] = points[i - 1]!;
    if (rank <= r1) {
      day = Math.round(d0 + ((rank - r0) / (r1 - r0)) * (d1 - d0));
      break;
    }
  }
  day += rng.int(-120, 120);
  // Reflect at the ends rather than clamp, so no single date piles up.
  if (day < w.addFirst) day = 2 * w.addFirst - day;
  if (day > last) day = 2 * last - day;
  return Math.max(w.addFirst, Math.min(last, day));
}

function toCensusRecord(w: Timeline, c: Carrier, rank: number, plant: Plant | undefined, rng: Rng): CensusRecord {
  const legal =
    plant === 'outlier' ? `${rng.pick(PLACE_WORDS)} TOWING AND RECOVERY LLC` : toLegalName(rng, c.kind, c.activeFleet);
  const dba = rng.chance(0.1)
    ? `${placeWord(rng)} ${rng.pick(c.kind === 'passenger' ? PASSENGER_WORDS : FREIGHT_WORDS)}`
    : '';
  const street = toStreet(rng);
  const zip = toZip(rng, c.place);
  const mailingElsewhere = rng.chance(0.15);
  const mailPlace = mailingElsewhere && rng.chance(0.3) ? rng.pickWeighted(PLACE_WEIGHTS) : c.place;
  const addDay = rank === 0 ? w.addFirst : toAddDay(w, rank, rng);

  // MCS-150 updates are due every two years, so most filings are recent; 7 % of carriers have none on file.
  let mcs150Day: number | null = null;
  if (!rng.chance(0.07)) {
    const r = rng.next();
    const span = w.asOfDay - addDay;
    const back = r < 0.72 ? rng.int(0, 730) : r < 0.92 ? rng.int(730, 2200) : rng.int(0, span);
    mcs150Day = Math.max(addDay, w.asOfDay - back);
  }
  const perUnit = rng.logFloat(8000, 130_000);
  // Mileage follows the fleet actually run, so the outlier's 45,001 reported units do not inflate it.
  const units = c.activeFleet;
  const miles = (x: number) => (rng.chance(0.5) ? Math.round(x / 1000) * 1000 : Math.round(x));
  let mcs150Mileage = '';
  let mcs150Year = '';
  if (mcs150Day !== null && !rng.chance(0.1)) {
    const filed = yearOf(mcs150Day);
    mcs150Year = String(Math.max(yearOf(addDay), rng.chance(0.7) ? filed - 1 : filed));
    mcs150Mileage = rng.chance(0.05) ? '0' : String(miles(units * perUnit));
  }
  // README §1: recent mileage is `0,0` (not empty) when unknown, and then vmt_source_id is empty.
  const recentKnown = plant !== 'zeroMileage' && plant !== 'outlier' && rng.chance(0.55);
  const recentYear = w.asOfYear - rng.int(1, 2);

  const church = c.kind === 'passenger' && legal.includes('CHURCH');
  const forHire =
    c.kind === 'forhire' ||
    c.kind === 'mail' ||
    (c.kind === 'passenger' && !church && rng.chance(0.6)) ||
    (c.kind === 'hazmat' && rng.chance(0.6));
  const exempt = c.kind === 'exempt' || (forHire && rng.chance(0.05));
  const privateProperty =
    c.kind === 'private' || (c.kind === 'hazmat' && !forHire) || (c.kind === 'forhire' && rng.chance(0.06));
  const passengerBusiness = c.kind === 'passenger' && !forHire && !church;
  const passengerNonBusiness = church;
  const government = c.kind === 'government';
  const oic = c.place.country === 'US' ? c.place.state : rng.pick(BORDER_OIC[c.place.country] ?? ['TX']);

  return {
    dot_number: String(c.dot),
    legal_name: legal,
    dba_name: dba,
    carrier_operation: c.operation,
    hm_flag: c.hazmat,
    pc_flag: c.passenger,
    phy_street: street,
    phy_city: c.place.city,
    phy_state: c.place.state,
    phy_zip: zip,
    phy_country: c.place.country,
    mailing_street: mailingElsewhere ? `PO BOX ${rng.int(1, 9999)}` : street,
    mailing_city: mailPlace.city,
    mailing_state: mailPlace.state,
    mailing_zip: mailPlace === c.place && !mailingElsewhere ? zip : toZip(rng, mailPlace),
    mailing_country: mailPlace.country,
    telephone: toPhone(rng, c.place),
    fax: rng.chance(0.08) ? toPhone(rng, c.place) : '',
    email_address: rng.chance(0.85) ? toEmail(rng, legal) : '',
    mcs150_date: mcs150Day === null ? '' : toDdMonYy(mcs150Day),
    mcs150_mileage: mcs150Mileage,
    mcs150_mileage_year: mcs150Year,
    add_date: toDdMonYy(addDay),
    oic_state: oic,
    nbr_power_unit: c.powerUnits === null ? '' : String(c.powerUnits),
    driver_total: String(c.drivers),
    recent_mileage: recentKnown ? String(miles(units * perUnit * rng.float(0.8, 1.2))) : '0',
    recent_mileage_year: recentKnown ? String(recentYear) : '0',
    vmt_source_id: recentKnown
      ? rng.pickWeighted([
          ['1', 85],
          ['3', 13],
          ['2', 2],
        ])
      : '',
    private_only: !forHire && !exempt && (privateProperty || passengerBusiness || passengerNonBusiness),
    authorized_for_hire: forHire,
    exempt_for_hire: exempt,
    private_property: privateProperty,
    private_passenger_business: passengerBusiness,
    private_passenger_nonbusiness: passengerNonBusiness,
    migrant: c.kind === 'exempt' && rng.chance(0.03),
    us_mail: c.kind === 'mail',
    federal_government: government && rng.chance(0.05),
    state_government: government && rng.chance(0.2),
    local_government: government && rng.chance(0.85),
    indian_tribe: government && rng.chance(0.03),
    op_other: plant === 'outlier' ? 'TOW TRUCK' : rng.chance(0.01) ? rng.pick(OP_OTHER_TEXT) : 'N',
  };
}

function toCarrier(dot: number, plant: Plant | undefined, rng: Rng): Carrier {
  let kind = rng.pickWeighted(KINDS);
  if (plant === 'passenger') kind = 'passenger';
  if (plant === 'hazmat') kind = 'hazmat';
  if (plant === 'bigFleet') kind = 'forhire';
  if (plant === 'outlier') kind = 'private';
  // The other plants stay ordinary property carriers, so each planted case shows one thing.
  if (plant !== undefined && plant !== 'passenger' && plant !== 'hazmat' && (kind === 'passenger' || kind === 'hazmat'))
    kind = 'forhire';

  const place =
    plant === 'leadingZero' ? LEADING_ZERO_PLACE : plant === 'outlier' ? TEXAS_PLACE : rng.pickWeighted(PLACE_WEIGHTS);
  const interstate = place.country !== 'US' || plant === 'bigFleet' || rng.chance(INTERSTATE_SHARE[kind]);
  // B is intrastate hazmat, so hazmat carriers that are not interstate are B (CENSUS_README CARRIER_OPERATION).
  const operation = interstate ? 'A' : kind === 'hazmat' ? 'B' : 'C';

  let fleet = plant === 'bigFleet' ? rng.int(2500, 6500) : fleetSize(rng);
  if (kind === 'government' && fleet < 3) fleet += rng.int(2, 10);
  let drivers = Math.max(1, Math.round(fleet * rng.float(1, 1.5)));
  let powerUnits: number | null = fleet;
  // README §1: about 4 % of census rows leave NBR_POWER_UNIT empty.
  if (plant === 'emptyPowerUnits' || (plant === undefined && rng.chance(0.04))) powerUnits = null;
  if (plant === 'outlier') {
    powerUnits = OUTLIER_POWER_UNITS;
    drivers = OUTLIER_DRIVERS;
    fleet = OUTLIER_DRIVERS;
  }
  return {
    dot,
    kind,
    place,
    operation,
    hazmat: kind === 'hazmat',
    passenger: kind === 'passenger',
    powerUnits,
    drivers,
    activeFleet: fleet,
  };
}

function toVehicle(c: Carrier, rng: Rng, w: Timeline): Vehicle {
  const modelYear = Math.min(w.asOfYear, w.asOfYear - Math.floor(rng.logFloat(1, 25)) + 1);
  const plate = () =>
    rng.chance(0.5)
      ? `${chars(rng, PLATE_LETTERS, 3)}${digits(rng, 4)}`
      : `${rng.int(1, 9)}${chars(rng, PLATE_LETTERS, 2)}${digits(rng, 4)}`;
  const plateState =
    c.place.country === 'US' ? (rng.chance(0.85) ? c.place.state : rng.pick(US_STATES)) : c.place.state;
  let type: string;
  let make: Make;
  if (c.kind === 'passenger') {
    type = rng.pickWeighted([
      ['MOTORCOACH', 55],
      ['BUS', 20],
      ['PASSENGER VAN', 15],
      ['SCHOOL BUS', 10],
    ]);
    make = rng.pick(BUS_MAKES);
  } else if (rng.chance(c.operation === 'A' ? 0.75 : 0.35) || c.kind === 'hazmat') {
    type = 'TRUCK TRACTOR';
    make = rng.pick(TRACTOR_MAKES);
  } else {
    type = rng.pickWeighted([
      ['STRAIGHT TRUCK', 70],
      ['PICKUP', 20],
      ['VAN', 10],
    ]);
    make = rng.pick(STRAIGHT_MAKES);
  }
  let trailer = '';
  if (type === 'TRUCK TRACTOR' && rng.chance(0.92)) {
    const [tmake, twmi] = c.kind === 'hazmat' ? rng.pick(TANK_MAKES) : rng.pick(TRAILER_MAKES);
    const ttype =
      c.kind === 'hazmat'
        ? 'SEMI-TRAILER'
        : rng.pickWeighted([
            ['SEMI-TRAILER', 90],
            ['FULL TRAILER', 6],
            ['POLE TRAILER', 4],
          ]);
    trailer = [ttype, tmake, plate(), plateState, toVin(rng, twmi, Math.max(2001, modelYear - rng.int(0, 6))), ''].join(
      ',',
    );
  } else if (type === 'STRAIGHT TRUCK' && rng.chance(0.1)) {
    const [tmake, twmi] = rng.pick(TRAILER_MAKES);
    trailer = ['FULL TRAILER', tmake, plate(), plateState, toVin(rng, twmi, Math.max(2001, modelYear)), ''].join(',');
  } else {
    trailer = NO_TRAILER;
  }
  return {
    type,
    make: make[0],
    license: plate(),
    state: plateState,
    vin: toVin(rng, make[1], Math.max(2001, modelYear)),
    decal: rng.chance(0.05) ? `${chars(rng, PLATE_LETTERS, 1)}${digits(rng, 6)}` : '',
    trailer,
  };
}

interface Counters {
  inspections: number;
  violations: number;
  crashes: number;
}

interface Sinks {
  census: LineSink;
  inspections: LineSink;
  violations: LineSink;
  crashes: LineSink;
}

const ORDERED_BASICS: readonly ViolBasic[] = ['unsafe', 'hos', 'fitness', 'substances', 'maintenance', 'hazmat'];

/** The inspection and crash history of one carrier, written as it is drawn. Returns the number of inspections. */
function writeEvents(
  w: Timeline,
  c: Carrier,
  plant: Plant | undefined,
  rng: Rng,
  counters: Counters,
  sinks: Sinks,
): number {
  // Inspections grow a little slower than fleet size; idle registrations (many one-truck carriers) get none.
  const pActive = plant === 'clean' ? 0 : Math.min(0.97, 0.3 + 0.13 * Math.log(c.activeFleet));
  const active = plant === 'bigFleet' || plant === 'passenger' || plant === 'hazmat' || rng.chance(pActive);
  const rate = c.kind === 'forhire' && c.operation !== 'A' ? INTRASTATE_FOR_HIRE_RATE : INSPECTION_RATE[c.kind];
  // Divided by the chance of being active, so the expected count per carrier does not depend on it.
  const lambda = active
    ? (INSPECTIONS_PER_UNIT * (w.months / 24) * c.activeFleet ** INSPECTION_EXPONENT * rate * rng.logFloat(0.4, 2.5)) /
      Math.max(pActive, 0.3)
    : 0;
  let count = poisson(rng, lambda);
  if ((plant === 'passenger' || plant === 'hazmat') && count < 3) count = 3 + rng.int(0, 3);
  const badness = rng.logFloat(0.35, 2.8) / 1.18;
  const windowDays = w.asOfDay - w.firstDay + 1;
  const homeState = c.place.country === 'US' ? c.place.state : null;
  const awayShare = c.operation === 'A' ? 0.5 : 0.03;
  const eventState = () => (homeState === null || rng.chance(awayShare) ? rng.pick(US_STATES) : homeState);

  if (count > 0) {
    const days: number[] = [];
    for (let i = 0; i < count; i++) days.push(w.asOfDay - rng.int(0, windowDays - 1));
    days.sort((a, b) => a - b);
    const pool: Vehicle[] = [];
    const poolSize = Math.max(1, Math.min(count, c.activeFleet, 40));
    const levels = c.hazmat ? HAZMAT_LEVELS : LEVELS;
    const dotText = String(c.dot);

    for (const day of days) {
      // A small pool per carrier, so the same trucks come back at later inspections.
      let vehicle: Vehicle;
      if (pool.length < poolSize) pool.push((vehicle = toVehicle(c, rng, w)));
      else vehicle = pool[rng.int(0, pool.length - 1)]!;
      const uid = 100_000_000 + counters.inspections;
      counters.inspections++;
      const level = rng.pickWeighted(levels);
      const placard = c.hazmat && rng.chance(0.6);
      const driverRel = DRIVER_LEVELS.has(level);
      const vehicleRel = VEHICLE_LEVELS.has(level);
      const hmRel = placard && vehicleRel;
      const relevant: Record<ViolBasic, boolean> = {
        unsafe: driverRel,
        hos: driverRel,
        fitness: driverRel,
        substances: driverRel,
        maintenance: vehicleRel,
        hazmat: hmRel,
      };
      const tw = timeWeight(w, day);
      const date = toDdMonYy(day);
      const state = eventState();

      const perBasic: Record<ViolBasic, number> = {
        unsafe: 0,
        hos: 0,
        fitness: 0,
        substances: 0,
        maintenance: 0,
        hazmat: 0,
      };
      let driverOos = 0;
      let vehicleOos = 0;
      let hazmatOos = 0;
      let nViol = 0;
      const mu = VIOLATIONS_PER_DIRTY * (LEVEL_VIOLATIONS[level] ?? 0) * badness;
      if (mu > 0 && !rng.chance(CLEAN_INSPECTION)) {
        nViol = Math.min(25, poisson(rng, mu));
        const shares: (readonly [ViolBasic, number])[] = [];
        for (const b of ORDERED_BASICS) if (relevant[b]) shares.push([b, BASIC_SHARE[b]]);
        for (let i = 0; i < nViol; i++) {
          const basic = rng.pickWeighted(shares);
          const kind = rng.pickWeighted(VIOLATION_WEIGHTS[basic]);
          const oos = kind.oos > 0 && rng.chance(Math.min(0.95, kind.oos * badness));
          const oosWeight = oos ? 2 : 0;
          const unit =
            basic === 'maintenance'
              ? vehicle.trailer !== NO_TRAILER && rng.chance(0.35)
                ? '2'
                : '1'
              : basic === 'hazmat'
                ? '1'
                : 'D';
          if (oos) {
            if (basic === 'hazmat') hazmatOos++;
            else if (unit === 'D') driverOos++;
            else vehicleOos++;
          }
          perBasic[basic]++;
          sinks.violations.push(
            `${uid},${date},${dotText},${kind.code},${BASIC_DESC[basic]},${bool(oos)},${oosWeight},${kind.severity},${tw},${(kind.severity + oosWeight) * tw},${toCsvField(kind.section)},${toCsvField(kind.group)},${unit}\n`,
          );
        }
        counters.violations += nViol;
      }
      // Total_Hazmat_Sent is undocumented in the sources we have; 0 except placarded inspections with an HM OOS.
      const hazmatSent = placard && hazmatOos > 0 ? 1 : 0;
      sinks.inspections.push(
        `${uid},${state}${String(uid).padStart(10, '0')},${state},${dotText},${date},${level},${state},${tw},${driverOos},${vehicleOos},${hazmatSent},${driverOos + vehicleOos + hazmatOos},${hazmatOos},${bool(placard)},` +
          `${vehicle.type},${vehicle.make},${vehicle.license},${vehicle.state},${vehicle.vin},${vehicle.decal},${vehicle.trailer},` +
          `${bool(relevant.unsafe)},${bool(relevant.hos)},${bool(relevant.fitness)},${bool(relevant.substances)},${bool(relevant.maintenance)},${bool(relevant.hazmat)},` +
          `${nViol},${perBasic.unsafe},${perBasic.hos},${perBasic.fitness},${perBasic.substances},${perBasic.maintenance},${perBasic.hazmat}\n`,
      );
    }
  }

  // Crashes track exposure (expected inspections), not the inspections actually drawn.
  const crashes = poisson(rng, (lambda * CRASHES_PER_INSPECTION * rng.logFloat(0.4, 2.5)) / 1.15);
  if (crashes > 0) {
    const days: number[] = [];
    for (let i = 0; i < crashes; i++) days.push(w.asOfDay - rng.int(0, windowDays - 1));
    days.sort((a, b) => a - b);
    for (const day of days) {
      const state = eventState();
      const fatalities = rng.chance(0.04)
        ? rng.pickWeighted([
            [1, 85],
            [2, 12],
            [3, 3],
          ])
        : 0;
      const injuries = rng.chance(0.32) ? Math.min(9, 1 + poisson(rng, 0.5)) : 0;
      // A crash is reportable for a fatality, an injury taken for treatment, or a tow-away (methodology §B.3).
      const towAway = fatalities === 0 && injuries === 0 ? true : rng.chance(0.6);
      const released = c.hazmat && rng.chance(0.04);
      const severity = (fatalities > 0 || injuries > 0 ? 2 : 1) + (released ? 1 : 0);
      const report = `${state}${String(500_000_000 + counters.crashes)}`;
      counters.crashes++;
      sinks.crashes.push(
        `${report},1,${c.dot},${toDdMonYy(day)},${state},${fatalities},${injuries},${bool(towAway)},${bool(released)},${severity},${timeWeight(w, day)},${bool(rng.chance(0.03))}\n`,
      );
    }
  }
  return count;
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * Writes the census and the three SMS Input files into `dir` and returns the paths written (joined to `dir`)
 * and the planted facts. Carriers = round(3000 × scale); scale 700 ≈ 2.1 M carriers, streamed.
 */
export async function writeCarriersDemo(
  dir: string,
  options: CarriersDemoOptions = {},
): Promise<{ files: string[]; facts: CarriersDemoFacts }> {
  const seed = options.seed ?? DEFAULT_SEED;
  const scale = options.scale ?? 1;
  const months = options.months ?? DEFAULT_MONTHS;
  const asOf = options.asOf ?? DEFAULT_AS_OF;
  const form = options.censusForm ?? 'txt';
  const progress = options.onProgress ?? (() => undefined);
  if (!Number.isInteger(seed)) throw new Error(`demo: seed must be an integer, got ${seed}`);
  if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`demo: scale must be a positive number, got ${scale}`);
  if (!(Number.isInteger(months) && months >= 1 && months <= DEFAULT_MONTHS))
    throw new Error(`demo: months must be an integer from 1 to 24, got ${months}`);
  if (form !== 'txt' && form !== 'csv') throw new Error(`demo: censusForm must be 'txt' or 'csv', got ${String(form)}`);
  const n = Math.round(CARRIERS_PER_SCALE * scale);
  if (n < MIN_CARRIERS)
    throw new Error(
      `demo: scale ${scale} gives ${n} carriers; at least ${MIN_CARRIERS} are needed (scale ≥ ${MIN_CARRIERS / CARRIERS_PER_SCALE})`,
    );

  const asOfDay = toDay(asOf);
  const addFirst = toDay(FIRST_ADD_DATE);
  if (asOfDay <= addFirst + 365) throw new Error(`demo: asOf must be after ${FIRST_ADD_DATE}, got ${asOf}`);
  const w: Timeline = {
    asOfDay,
    firstDay: toMonthsBefore(asOfDay, months) + 1,
    tw3: toMonthsBefore(asOfDay, 6) + 1,
    tw2: toMonthsBefore(asOfDay, 12) + 1,
    months,
    asOfYear: yearOf(asOfDay),
    addFirst,
  };

  const plantAt = new Map<number, Plant>();
  for (const [plant, at] of PLANTS) plantAt.set(Math.floor(at * n), plant);

  const root = createRng(seed);
  const dotRng = root.fork('dot-numbers');
  const censusFile = form === 'txt' ? CENSUS_TXT_FILE : CENSUS_CSV_FILE;
  const toCensusLine = form === 'txt' ? toCensusTxtLine : toCensusCsvLine;
  const opened: LineSink[] = [];
  const open = async (file: string, header: string) => {
    const sink = await LineSink.open(join(dir, file), header);
    opened.push(sink);
    return sink;
  };

  try {
    const sinks: Sinks = {
      census: await open(censusFile, form === 'txt' ? CENSUS_TXT_HEADER : CENSUS_CSV_HEADER),
      inspections: await open(INSPECTION_FILE, `${INSPECTION_COLUMNS.join(',')}\n`),
      violations: await open(VIOLATION_FILE, `${VIOLATION_COLUMNS.join(',')}\n`),
      crashes: await open(CRASH_FILE, `${CRASH_COLUMNS.join(',')}\n`),
    };
    const all = [sinks.census, sinks.inspections, sinks.violations, sinks.crashes];
    const counters: Counters = { inspections: 0, violations: 0, crashes: 0 };
    const passenger: number[] = [];
    const hazmat: number[] = [];
    const clean: number[] = [];
    const planted = new Map<Plant, Carrier>();

    // DOT numbers ascend with small gaps, as FMCSA assigns them; 2.1 M carriers reach about 4.2 M.
    let dot = 10_000 + dotRng.int(0, 999);
    progress(`carriers: writing ${n.toLocaleString('en-US')} carriers`);
    for (let i = 0; i < n; i++) {
      dot += dotRng.int(1, 3);
      const plant = plantAt.get(i);
      const rng = root.fork(`carrier:${dot}`);
      const carrier = toCarrier(dot, plant, rng.fork('profile'));
      sinks.census.push(toCensusLine(toCensusRecord(w, carrier, i / n, plant, rng.fork('census'))));
      const inspections = writeEvents(w, carrier, plant, rng.fork('events'), counters, sinks);
      if (carrier.passenger) passenger.push(dot);
      if (carrier.hazmat) hazmat.push(dot);
      if (inspections === 0) clean.push(dot);
      if (plant) planted.set(plant, carrier);
      for (const sink of all) if (sink.full) await sink.flush();
      if ((i + 1) % 100_000 === 0)
        progress(
          `carriers: ${(i + 1).toLocaleString('en-US')} of ${n.toLocaleString('en-US')}, ${counters.inspections.toLocaleString('en-US')} inspections`,
        );
    }
    for (const sink of all) await sink.close();
    progress(
      `carriers: ${n.toLocaleString('en-US')} carriers, ${counters.inspections.toLocaleString('en-US')} inspections, ${counters.violations.toLocaleString('en-US')} violations, ${counters.crashes.toLocaleString('en-US')} crashes`,
    );

    const plantedCarrier = (p: Plant) => {
      const c = planted.get(p);
      if (!c) throw new Error(`demo: planted carrier ${p} missing`);
      return c;
    };
    const outlier = plantedCarrier('outlier');
    return {
      files: all.map((s) => s.path),
      facts: {
        carriers: n,
        inspections: counters.inspections,
        violations: counters.violations,
        crashes: counters.crashes,
        asOf,
        outlier: { dot: outlier.dot, power_units: OUTLIER_POWER_UNITS, drivers: OUTLIER_DRIVERS },
        passenger,
        hazmat,
        clean,
        zeroMileage: plantedCarrier('zeroMileage').dot,
        emptyPowerUnits: plantedCarrier('emptyPowerUnits').dot,
        bigFleet: plantedCarrier('bigFleet').dot,
      },
    };
  } catch (e) {
    for (const sink of opened) sink.destroy();
    throw e;
  }
}
