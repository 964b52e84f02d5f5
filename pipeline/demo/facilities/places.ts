// Real place names with invented postal areas and coordinates: Ontario cities and the other provinces' plants.

export interface Place {
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

export const ONTARIO_PLACES: readonly Place[] = [
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
export const OTHER_PROVINCES: readonly Province[] = [
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

const PLACE_BY_NAME = new Map(ONTARIO_PLACES.map((p) => [p.name, p]));
export function toPlace(name: string): Place {
  const p = PLACE_BY_NAME.get(name);
  if (!p) throw new Error(`demo: unknown place ${name}`);
  return p;
}

export interface PlaceLike {
  name: string;
  fsa: readonly string[];
  lat: number;
  lon: number;
  federal?: readonly string[];
}
