// The economy registry's records (docs/contracts/economy.md, "Registry"): what the reviewed data file
// holds per series, and the shapes the routes answer.
import type { ObservationsOfASeries } from '../types/economy/observations.ts';
import type { ObservationParameters } from '../types/economy/observations-query.ts';

export const CATEGORIES = {
  output: 'Output and activity',
  prices: 'Prices and inflation',
  labour: 'Labour market',
  housing: 'Housing and construction',
  trade: 'International trade',
  'interest-rates': 'Interest rates',
  'exchange-rates': 'Exchange rates',
  'money-credit': 'Money and credit',
} as const;
export type CategorySlug = keyof typeof CATEGORIES;

export type Source = 'STATCAN' | 'BOC';
export type Frequency = 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'annual';

export type Upstream =
  | { kind: 'statcan-wds'; tableId: string; vectorIds: number[] }
  | { kind: 'boc-valet'; seriesNames: string[] };

/** One entry of data/economy/registry.json. */
export interface RegistryEntry {
  id: string;
  title: string;
  source: Source;
  /** StatCan table id (`18-10-0004-01`); null for Bank of Canada series. */
  tableId: string | null;
  units: string;
  unitsDetail: string;
  frequency: Frequency;
  category: CategorySlug;
  description: string;
  /** StatCan vector ids (integers); [] for Valet series. */
  vectorIds: number[];
  /** Valet series names; [] for StatCan series. */
  seriesNames: string[];
  /** StatCan scalar factor code of the vector (0 units, 3 thousands, 6 millions, …); 0 for Valet. */
  scalarFactorCode: number;
  lastVerified: string;
}

/** `/api/series` list record. */
export interface SeriesRecord {
  id: string;
  title: string;
  source: Source;
  sourceLabel: 'Statistics Canada' | 'Bank of Canada';
  tableId: string | null;
  units: string;
  frequency: Frequency;
  category: CategorySlug;
  description: string;
}

/** `/api/series/{id}` detail. */
export interface SeriesDetail extends SeriesRecord {
  vectorIds: number[];
  unitsDetail: string;
  lastVerified: string;
  /** The scalar factor applied to upstream values (StatCan scalarFactorCode → 10^code), exposed as the issue asks. */
  scalar_factor: { code: number; multiplier: number };
  upstream: Upstream;
}

export interface Observation {
  date: string;
  value: number;
  /**
   * The upstream's flags on a published value, as its tables print them, space-separated: StatCan's status
   * (`A`…`E`, `0s`, `<LOD`) then its symbol (`p` preliminary, `r` revised). Absent when there is none.
   */
  status?: string;
  /** StatCan's `releaseTime` of the point: Ottawa local time, `YYYY-MM-DDTHH:MM`, as WDS gives it. */
  released?: string;
  /** An aggregated point whose period misses observations (set by the frequency aggregation only). */
  incomplete?: true;
}

/**
 * A point the upstream published without a value: StatCan's `..`, `...`, `F`, `x` (suppressed), or a Valet
 * cell that is empty (`..`) or an error (`e:<code>`). Kept beside the observations, never turned into 0.
 */
export interface MissingPoint {
  date: string;
  status: string;
  released?: string;
}

/** What one pull of a series gives: its values, the points published without one, and when it was released. */
export interface PulledSeries {
  /** Ascending by date, values in base units (scalar factor applied). */
  observations: Observation[];
  /** Ascending by date; a date is in one list or the other. */
  missing: MissingPoint[];
  /**
   * The upstream's own release time of the answer where it gives one for the whole answer (Valet: the
   * answer's HTTP `Date`, as ISO 8601); StatCan gives one per point instead (`released`).
   */
  released?: string;
}

/** `/api/observations` response (schemas/economy/observations.schema.json). */
export type ObservationsResponse = ObservationsOfASeries;
/** Its query (schemas/economy/observations-query.schema.json). */
export type ObservationsParameters = ObservationParameters;
