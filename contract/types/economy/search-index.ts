// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Every list record, by id.
 */
export type SeriesList = Record[];

/**
 * index/search.json: the list records by id and a serialized lunr index over their ids, titles and descriptions (words folded by toSearchWords, no stemmer, no stop words). Loaded by the server at start; usable by a browser client from a CDN.
 */
export interface SeriesSearchIndex {
  series: SeriesList;
  /**
   * lunr.Index#toJSON output (lunr 2.x); document refs are series ids, fields id, title and description.
   */
  lunr: {
    /**
     * lunr version that wrote the index.
     */
    version: string;
    /**
     * Indexed field names.
     */
    fields: unknown[];
    /**
     * Per document and field term vectors.
     */
    fieldVectors: unknown[];
    /**
     * Terms with their postings.
     */
    invertedIndex: unknown[];
    /**
     * Registered pipeline functions (empty: the pipeline is reset).
     */
    pipeline: unknown[];
  };
}
/**
 * A list record (contract/economy/types.ts SeriesRecord).
 */
export interface Record {
  /**
   * Series id: upper case letters, digits and underscores, starting with a letter (CPI_ALL_ITEMS).
   */
  id: string;
  /**
   * Short human title.
   */
  title: string;
  /**
   * Upstream: Statistics Canada Web Data Service or Bank of Canada Valet.
   */
  source: "STATCAN" | "BOC";
  /**
   * Human name of the source, one per source code.
   */
  sourceLabel: "Statistics Canada" | "Bank of Canada";
  /**
   * Statistics Canada table id in its published form (18-10-0004-01); null for Bank of Canada series.
   */
  tableId: string | null;
  /**
   * Units in a few words; unitsDetail in the detail document says more.
   */
  units: string;
  /**
   * How often the upstream publishes an observation.
   */
  frequency: "daily" | "weekly" | "monthly" | "quarterly" | "annual";
  /**
   * Category slug (docs/contracts/economy.md): output, prices, labour, housing, trade, interest-rates, exchange-rates, money-credit.
   */
  category: "output" | "prices" | "labour" | "housing" | "trade" | "interest-rates" | "exchange-rates" | "money-credit";
  /**
   * What the series measures, with its upstream identifiers.
   */
  description: string;
}
