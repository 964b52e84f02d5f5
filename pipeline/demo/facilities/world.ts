// The invented facilities: ordinary linked pairs and single-program ones, each with a unique name, owner,
// place, contacts and tonnages, drawn from one RNG stream.
import { foldAccents } from '../../../contract/facilities/normalize-names.ts';
import type { Rng } from '../../../contract/core/rng.ts';
import { toNumberText } from './formats.ts';
import { NameGuard } from './name-guard.ts';
import {
  BRAND_HEADS,
  BRAND_TAILS,
  FIRST_NAMES,
  LAST_NAMES,
  OWNER_SUFFIXES,
  POSITIONS,
  STREETS,
  VERIFIERS,
} from './names.ts';
import { ONTARIO_PLACES, OTHER_PROVINCES, type Place, type PlaceLike, toPlace } from './places.ts';
import { OTHER_SECTORS, type Sector, SECTORS, SMALL_SECTORS, toSector } from './sectors.ts';
import { type Site, toProgramYears, toSite } from './sites.ts';
import type { Contact, FederalSpec, OntarioSpec } from './specs.ts';
import {
  FEDERAL_THRESHOLD_DROP,
  FIRST_FEDERAL_YEAR,
  FIRST_ONTARIO_YEAR,
  LAST_YEAR,
  type Spans,
  years,
} from './years.ts';

const stripAccents = foldAccents;

export class DemoWorld {
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
