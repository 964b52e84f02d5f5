// A build's changes as the record writes them, held as JSON text: at FMCSA size a build changes hundreds of
// thousands of carriers, and their text takes a fraction of the heap their objects would.
import type { Change } from '../../contract/core/changes.ts';

export class ChangeLog {
  private readonly texts: string[] = [];
  private readonly ids: string[] = [];
  readonly counts = { added: 0, removed: 0, changed: 0 };
  /** Each notable word's changes, as their positions in the log. */
  readonly notable = new Map<string, number[]>();

  static of(changes: readonly Change[]): ChangeLog {
    const log = new ChangeLog();
    for (const c of changes) log.add(c);
    return log;
  }

  /** Adds a change; the record lists changes in the order they were added (by entity id). */
  add(change: Change): void {
    const at = this.texts.length;
    this.texts.push(JSON.stringify(change));
    this.ids.push(change.id);
    this.counts[change.kind]++;
    for (const word of change.notable) (this.notable.get(word) ?? this.notable.set(word, []).get(word)!).push(at);
  }

  get length(): number {
    return this.texts.length;
  }

  /** The changes from `from` up to `to`, as objects. */
  slice(from: number, to: number): Change[] {
    return this.texts.slice(from, to).map((t) => JSON.parse(t) as Change);
  }

  /** Each change's entity id and JSON text, in order. */
  *entries(): Generator<[id: string, text: string]> {
    for (let i = 0; i < this.texts.length; i++) yield [this.ids[i]!, this.texts[i]!];
  }
}
