// Series search, the query side (docs/contracts/economy.md, `/api/series?q=`): the lunr index the build writes,
// with words folded as the build folds them and no stemmer or stop words, so each query word is a trailing
// wildcard. Ranked in tiers (exact id, id prefix, title words, description words), ties by id.
import lunr from 'lunr';
import { toSearchWords } from '../core/text.ts';
import { compareIds, sortById } from './ids.ts';
import type { SeriesRecord } from './types.ts';

/** `index/search.json` of an economy build. */
export interface SearchIndexFile {
  /** Every list record, by id. */
  series: SeriesRecord[];
  lunr: object;
}

/** What the server keeps per series to place a lunr match in a tier. */
interface RankDoc {
  record: SeriesRecord;
  titleWords: readonly string[];
}

export interface SeriesSearch {
  index: lunr.Index;
  /** Ids in code-unit order, for the id-prefix tier (binary search). */
  ids: readonly string[];
  byId: ReadonlyMap<string, RankDoc>;
}

export function toSeriesSearch(file: SearchIndexFile): SeriesSearch {
  const series = sortById(file.series);
  return {
    index: lunr.Index.load(file.lunr),
    ids: series.map((r) => r.id),
    byId: new Map(series.map((r) => [r.id, { record: r, titleWords: toSearchWords(r.title) }])),
  };
}

/** Words of a query as the index holds them; an empty list means the query constrains nothing. */
export function toQueryWords(q: string): string[] {
  return toSearchWords(q);
}

/** The id a query would name: its words joined by underscores, upper-cased (`cpi all items` → CPI_ALL_ITEMS). */
export function toIdKey(words: readonly string[]): string {
  return words.join('_').toUpperCase();
}

/** First index of `ids` (sorted) whose id is ≥ key. */
function lowerBound(ids: readonly string[], key: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIds(ids[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const startsAWord = (word: string, words: readonly string[]) => words.some((w) => w.startsWith(word));

/**
 * The records matching `query`, ranked by the tiers above, ties by id. A query without letters or digits
 * returns every record by id.
 */
export function rankSeries(query: string, search: SeriesSearch): SeriesRecord[] {
  const words = toQueryWords(query);
  if (words.length === 0) return search.ids.map((id) => search.byId.get(id)!.record);
  const key = toIdKey(words);
  const tiers: string[][] = [[], [], [], []];
  const placed = new Set<string>();
  const place = (tier: number, id: string) => {
    if (placed.has(id)) return;
    placed.add(id);
    tiers[tier]!.push(id);
  };

  if (search.byId.has(key)) place(0, key);
  for (let i = lowerBound(search.ids, key); i < search.ids.length && search.ids[i]!.startsWith(key); i++)
    place(1, search.ids[i]!);

  const hits = search.index.query((q) => {
    for (const word of words) {
      q.term(word, {
        wildcard: lunr.Query.wildcard.TRAILING,
        presence: lunr.Query.presence.REQUIRED,
        usePipeline: false,
      });
    }
  });
  for (const id of hits.map((h) => h.ref)) {
    const doc = search.byId.get(id);
    if (!doc) continue;
    place(words.every((w) => startsAWord(w, doc.titleWords)) ? 2 : 3, id);
  }

  return tiers.flatMap((ids) => ids.sort(compareIds).map((id) => search.byId.get(id)!.record));
}
