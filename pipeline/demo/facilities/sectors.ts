// Industries: NAICS 2017 titles as the GHGRP files print them, and each sector's gas profile, size and places.
import { ONTARIO_PLACES } from './places.ts';

/** NAICS 2017 code → English and French titles, as the GHGRP files print them. */
export const NAICS: Record<string, readonly [string, string]> = {
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
export interface Sector {
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

export const SECTORS: readonly Sector[] = [
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
export const SMALL_SECTORS = ['greenhouse', 'food', 'institution', 'glass'];

/** Sectors of federal facilities in other provinces. */
export const OTHER_SECTORS: readonly Sector[] = [
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

export function toSector(key: string): Sector {
  const s = SECTORS.find((x) => x.key === key) ?? OTHER_SECTORS.find((x) => x.key === key);
  if (!s) throw new Error(`demo: unknown sector ${key}`);
  return s;
}
