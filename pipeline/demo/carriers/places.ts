// Real US, Canadian and Mexican cities with their zip prefixes and area codes, weighted by how many carriers.

export interface Place {
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

export const PLACES: readonly Place[] = [
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
export const PLACE_WEIGHTS: readonly (readonly [Place, number])[] = PLACES.map((p) => [p, p.weight]);
export const US_STATES = [...new Set(PLACES.filter((p) => p.country === 'US').map((p) => p.state))];
/** FMCSA oversight offices for carriers based abroad: the border states. */
export const BORDER_OIC: Record<string, readonly string[]> = { CA: ['WA', 'MI', 'NY', 'ND'], MX: ['TX', 'CA', 'AZ'] };
export const LEADING_ZERO_PLACE = PLACES.find((p) => p.city === 'EDISON')!;
export const TEXAS_PLACE = PLACES.find((p) => p.city === 'HOUSTON')!;
