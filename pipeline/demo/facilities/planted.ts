// The cases the linking rule (docs/contracts/facilities.md, "Identity rules") and the flags must handle, each
// planted on facilities of its own with names, places and tonnages fixed by hand.
import { toPlace } from './places.ts';
import { toSector } from './sectors.ts';
import { type SiteOptions, toSite } from './sites.ts';
import type { FederalSpec, OntarioSpec } from './specs.ts';
import type { DemoWorld } from './world.ts';
import {
  FEDERAL_THRESHOLD_DROP,
  FIRST_FEDERAL_YEAR,
  FIRST_ONTARIO_YEAR,
  LAST_YEAR,
  RENAME_YEAR,
  type Spans,
} from './years.ts';

export interface SpecPair {
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

export interface Plants {
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

export function plantEdgeCases(w: DemoWorld): Plants {
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
