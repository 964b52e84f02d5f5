// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Series id: upper case letters, digits and underscores, starting with a letter (CPI_ALL_ITEMS).
 */
export type Id = string;
/**
 * Upstream: Statistics Canada Web Data Service or Bank of Canada Valet.
 */
export type Source = "STATCAN" | "BOC";
/**
 * Statistics Canada table id in its published form (18-10-0004-01); null for Bank of Canada series.
 */
export type TableId = string | null;
/**
 * How often the upstream publishes an observation.
 */
export type Frequency = "daily" | "weekly" | "monthly" | "quarterly" | "annual";
/**
 * Category slug (docs/contracts/economy.md): output, prices, labour, housing, trade, interest-rates, exchange-rates, money-credit.
 */
export type Category =
  "output" | "prices" | "labour" | "housing" | "trade" | "interest-rates" | "exchange-rates" | "money-credit";
/**
 * Statistics Canada vector ids, bare integers; empty for Bank of Canada series.
 *
 * Items: A StatCan vector id as the API takes it (41690973 for v41690973).
 */
export type VectorIds = number[];
/**
 * Bank of Canada Valet series names; empty for Statistics Canada series.
 *
 * Items: A Valet series name (FXUSDCAD, V39079, AVG.INTWO).
 */
export type SeriesNames = string[];
/**
 * data/economy/registry.json (and its copy registry.json in the build): the reviewed list of Canadian economic series the economy service answers for, each with its real upstream identifiers (docs/contracts/economy.md, Registry). Ids are unique (checked by pipeline/economy/registry.ts, which JSON Schema cannot express). The $defs hold the pieces the other economy schemas share, and the build report.
 *
 * @minItems 1
 */
export type EconomySeriesRegistry = Entry[];

/**
 * One series of the registry (contract/economy/types.ts RegistryEntry).
 */
export interface Entry {
  id: Id;
  /**
   * Short human title, as shown in lists and matched by search.
   */
  title: string;
  source: Source;
  tableId: TableId;
  /**
   * Units of the values as served, in a few words (Index, 2002=100; Percent; Dollars, millions for a Valet series). A StatCan series with a scalar factor is served multiplied out, so its units name no scale (Dollars, not Dollars, millions): the build refuses one that does.
   */
  units: string;
  /**
   * Units in full: base period, adjustment, scalar factor and any quirk of the upstream values.
   */
  unitsDetail: string;
  frequency: Frequency;
  category: Category;
  /**
   * What the series measures, with its upstream identifiers written out so search finds them.
   */
  description: string;
  vectorIds: VectorIds;
  seriesNames: SeriesNames;
  /**
   * StatCan scalarFactorCode of the vector (getCodeSets scalar: 0 units, 3 thousands, 6 millions, 9 billions); WDS values arrive not multiplied by it, and the service multiplies them out (observations are in base units). 0 for Valet series.
   */
  scalarFactorCode: number;
  /**
   * The day the identifiers were last checked against an upstream response or public source.
   */
  lastVerified: string;
  /**
   * How the identifiers were checked (reviewed data, not served by the API).
   */
  evidence?: {
    /**
     * Recorded upstream responses that hold these identifiers; empty when only public secondary sources back them.
     *
     * Items: Path below shared/data/economy/ of a recorded upstream response holding the identifiers.
     */
    recorded: string[];
    /**
     * Official documentation that shows the identifiers, where no recorded response does.
     *
     * Items: A Statistics Canada or Bank of Canada page showing these identifiers.
     */
    documentation?: string[];
    /**
     * Real upstream responses saved as they came (a Valet or WDS download, with the upstream's own header) in a public repository, where shared/data/economy has none; the note says which lines hold the identifiers.
     */
    archived?: {
      /**
       * GitHub owner/name.
       */
      repository: string;
      /**
       * The file in that repository.
       */
      path: string;
      /**
       * The commit the file was read at.
       */
      commit: string;
    }[];
    /**
     * What was checked where, and what was not.
     */
    note: string;
  };
}
