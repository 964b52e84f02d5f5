// Series search, the build side (docs/contracts/economy.md, `/api/series?q=`): a lunr index over ids,
// titles and descriptions, written once as `index/search.json`; the server ranks with it through
// contract/economy/search.ts, which folds query words the way the index's words are folded here.
import lunr from 'lunr';
import { sortById } from '../../contract/economy/ids.ts';
import type { SearchIndexFile } from '../../contract/economy/search.ts';
import type { SeriesRecord } from '../../contract/economy/types.ts';
import { toSearchWords } from '../../contract/core/text.ts';

export function toSearchIndex(records: readonly SeriesRecord[]): SearchIndexFile {
  const series = sortById(records);
  const index = lunr(function () {
    // No stemmer or stop-word filter: a query word must start a word of the series as written.
    this.pipeline.reset();
    this.searchPipeline.reset();
    this.ref('ref');
    this.field('id');
    this.field('title');
    this.field('description');
    for (const r of series) {
      // `CPI_ALL_ITEMS` is indexed as the words `cpi all items`.
      this.add({
        ref: r.id,
        id: toSearchWords(r.id).join(' '),
        title: toSearchWords(r.title).join(' '),
        description: toSearchWords(r.description).join(' '),
      });
    }
  });
  return { series, lunr: index.toJSON() };
}
