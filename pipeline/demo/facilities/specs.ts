// A facility as each program reports it: the sites behind it and how its rows are spelled, year by year.
import type { Site } from './sites.ts';
import type { Spans } from './years.ts';

export interface OntarioSpec {
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

export interface Contact {
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

export interface FederalSpec {
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

/** The files list facilities in id order; federal ids carry a `G` prefix. */
export const byNumericId = <T extends { id: string }>(a: T, b: T) =>
  Number(a.id.replace(/\D/g, '')) - Number(b.id.replace(/\D/g, ''));
