// Each series' archive folded into its real-time history (realtime.ts), kept in memory and brought up to
// date by folding only the snapshots added since: a year of daily snapshots is read once per process, and
// each new day is one read. A list that changed otherwise (a day re-pulled, a damaged day dropped) is
// folded again from the start.
import { emptyHistory, fold, type History, type Version } from './realtime.ts';
import type { VintageArchive } from './vintages.ts';

export interface RealtimeArchive {
  /**
   * The series' history as of its current list of snapshots. The same object while no day is added, so
   * answers made from it may be kept by its identity and `days.length`.
   */
  history(series: string): Promise<History>;
  /**
   * The history kept for the archive's current list of the series, without a read; undefined when none is
   * kept, the list changed since, or the archive cannot say without a read (a shared store).
   */
  peek(series: string): History | undefined;
}

interface Kept {
  list: readonly string[];
  history: History;
}

const isPrefix = (a: readonly string[], b: readonly string[]) => a.length <= b.length && a.every((d, i) => d === b[i]);

export function createRealtimeArchive(
  archive: Pick<VintageArchive, 'list' | 'read'> & Partial<Pick<VintageArchive, 'peekList'>>,
): RealtimeArchive {
  // Kept: folding a year of daily snapshots reads and parses some 80 MB; a new day folds one more.
  const kept = new Map<string, Kept>();
  // One fold at a time per series: concurrent requests wait for the same one.
  const folding = new Map<string, Promise<History>>();

  const update = async (series: string): Promise<History> => {
    const list = await archive.list(series);
    const k = kept.get(series);
    if (k && k.list === list) return k.history;
    // A history is never changed once answered from: a new day makes a new one (copied when extended).
    const extend = k !== undefined && k.list.length < list.length && isPrefix(k.history.days, list);
    const history = extend ? copyOf(k.history) : emptyHistory(series);
    for (const day of list.slice(history.days.length)) {
      const snap = await archive.read(series, day, { keep: false });
      // A day that cannot be read is no longer listed by the archive: the next call folds without it.
      if (snap) fold(history, snap);
    }
    kept.set(series, { list, history });
    return history;
  };

  return {
    peek(series) {
      const k = kept.get(series);
      const list = archive.peekList?.(series);
      return k && list !== undefined && k.list === list ? k.history : undefined;
    },
    history(series) {
      let p = folding.get(series);
      if (!p) {
        p = update(series).finally(() => folding.delete(series));
        folding.set(series, p);
      }
      return p;
    },
  };
}

/** A copy `fold` may extend without changing `h`: new lists (a fold pushes), the open versions cloned (it ends them). */
function copyOf(h: History): History {
  const versions = new Map<string, Version[]>();
  for (const [date, list] of h.versions) {
    const open = list.at(-1);
    versions.set(date, open && open.until === undefined ? [...list.slice(0, -1), { ...open }] : [...list]);
  }
  return { series: h.series, days: [...h.days], pulls: [...h.pulls], versions, sorted: h.sorted };
}
