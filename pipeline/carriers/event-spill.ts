// Every inspection, violation and crash of the window, kept per carrier for the inspection list and the
// step-down (docs/contracts/carriers.md, "May I hire them?"). The SMS files are not sorted by carrier, so
// the events are spilled as they stream by into partitions by carrier position (contiguous ranges of the
// census order) and read back one partition at a time while the profiles are written in that same order:
// memory holds one partition's events, never a whole file's.
import { closeSync, mkdtempSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIOLATION_BASICS } from './carrier-events.ts';
import type { CarrierEvents, EventSink, InspectionEvent } from './carrier-events.ts';
import type { CrashRow, InspectionRow, ViolationRow } from './types.ts';
import { removeSpill, SPILL_PREFIX, sweepStaleSpills } from './aggregate.ts';

/** Partitions: at full size (20 M events of the window) about 300,000 events each. */
const PARTITIONS = 64;
const FLUSH_AT = 1 << 18;

const BASIC_INDEX = new Map(VIOLATION_BASICS.map((b, i) => [b, i]));
const text = (s: string | null) => s ?? '';
const orNull = (s: string | undefined) => (s === undefined || s === '' ? null : s);

export class EventSpill implements EventSink {
  private readonly partitions: number;
  private spill: { dir: string; fds: number[]; buffers: string[] } | undefined;
  private loaded = -1;
  private current = new Map<number, CarrierEvents>();
  private last = -1;

  constructor(private readonly carriers: number) {
    this.partitions = Math.max(1, Math.min(PARTITIONS, carriers));
  }

  private partitionOf(c: number): number {
    return Math.floor((c * this.partitions) / this.carriers);
  }

  private write(c: number, line: string): void {
    if (!this.spill) {
      sweepStaleSpills();
      const dir = mkdtempSync(join(tmpdir(), `${SPILL_PREFIX}${process.pid}-`));
      this.spill = {
        dir,
        fds: Array.from({ length: this.partitions }, (_, i) => openSync(join(dir, `events-${i}.tsv`), 'w')),
        buffers: Array.from({ length: this.partitions }, () => ''),
      };
    }
    const p = this.partitionOf(c);
    const buffered = this.spill.buffers[p]! + line;
    if (buffered.length >= FLUSH_AT) {
      writeSync(this.spill.fds[p]!, buffered);
      this.spill.buffers[p] = '';
    } else this.spill.buffers[p] = buffered;
  }

  /** An inspection of the window of the carrier at position `c`. Texts are clean (no tab or line break). */
  inspection(c: number, r: InspectionRow): void {
    let mask = 0;
    VIOLATION_BASICS.forEach((b, i) => {
      if (r.relevant[b]) mask |= 1 << i;
    });
    this.write(
      c,
      `I\t${c}\t${r.unique_id}\t${r.date}\t${text(r.state)}\t${r.level ?? ''}\t${r.driver_oos}\t${r.vehicle_oos}\t${r.hazmat_oos}\t${r.hazmat_placard ? 1 : 0}\t${mask}\n`,
    );
  }

  /** A violation of the window in a BASIC we rank. */
  violation(c: number, r: ViolationRow): void {
    if (r.basic === null) return;
    this.write(
      c,
      `V\t${c}\t${r.unique_id}\t${r.date}\t${r.code}\t${BASIC_INDEX.get(r.basic)!}\t${r.severity_weight}\t${r.oos ? 1 : 0}\t${r.oos_weight}\t${text(r.description)}\n`,
    );
  }

  crash(c: number, r: CrashRow): void {
    this.write(
      c,
      `C\t${c}\t${r.report_number}\t${r.seq}\t${r.date}\t${text(r.state)}\t${r.fatalities}\t${r.injuries}\t${r.tow_away ? 1 : 0}\t${r.hazmat_released ? 1 : 0}\t${r.not_preventable ? 1 : 0}\n`,
    );
  }

  /** Ends the writing: every buffer to its file. */
  close(): void {
    if (!this.spill) return;
    const { fds, buffers } = this.spill;
    fds.forEach((fd, p) => {
      if (buffers[p]) writeSync(fd, buffers[p]!);
      buffers[p] = '';
      closeSync(fd);
    });
    this.spill.fds = [];
  }

  /**
   * The events of the carrier at position `c`, undefined when it has none. Carriers are asked in ascending
   * order (the profile loop's): each partition is read once, when its first carrier is asked.
   */
  async eventsOf(c: number): Promise<CarrierEvents | undefined> {
    if (c <= this.last) throw new Error(`events asked out of order: carrier ${c} after ${this.last}`);
    this.last = c;
    if (!this.spill) return undefined;
    const p = this.partitionOf(c);
    if (p !== this.loaded) {
      this.current = parsePartition(await readFile(join(this.spill.dir, `events-${p}.tsv`), 'utf8'));
      this.loaded = p;
    }
    const events = this.current.get(c);
    this.current.delete(c);
    return events;
  }

  /** Removes the spill folder; safe to call twice. */
  dispose(): void {
    if (!this.spill) return;
    removeSpill(this.spill);
    this.spill = undefined;
    this.current = new Map();
  }
}

/** One partition's lines, grouped by carrier; violations join their inspection by Unique_ID. */
export function parsePartition(data: string): Map<number, CarrierEvents> {
  const out = new Map<number, CarrierEvents>();
  const byId = new Map<string, InspectionEvent>();
  const eventsOf = (c: number): CarrierEvents => {
    let e = out.get(c);
    if (!e) {
      e = { inspections: [], crashes: [] };
      out.set(c, e);
    }
    return e;
  };
  // Inspection rows first: a violation may come before its inspection in the files.
  const pending: string[][] = [];
  let start = 0;
  while (start < data.length) {
    const end = data.indexOf('\n', start);
    const f = data.slice(start, end).split('\t');
    start = end + 1;
    const kind = f[0];
    const c = Number(f[1]);
    if (kind === 'I') {
      const key = `${c}\t${f[2]!}`;
      if (byId.has(key)) continue;
      const inspection: InspectionEvent = {
        id: f[2]!,
        date: f[3]!,
        state: orNull(f[4]),
        level: f[5] === '' ? null : Number(f[5]),
        driver_oos: Number(f[6]),
        vehicle_oos: Number(f[7]),
        hazmat_oos: Number(f[8]),
        hazmat_placard: f[9] === '1',
        relevant: Number(f[10]),
        listed: true,
        violations: [],
      };
      byId.set(key, inspection);
      eventsOf(c).inspections.push(inspection);
    } else if (kind === 'V') pending.push(f);
    else if (kind === 'C')
      eventsOf(c).crashes.push({
        report_number: f[2]!,
        seq: f[3]!,
        date: f[4]!,
        state: orNull(f[5]),
        fatalities: Number(f[6]),
        injuries: Number(f[7]),
        tow_away: f[8] === '1',
        hazmat_released: f[9] === '1',
        not_preventable: f[10] === '1',
      });
  }
  for (const f of pending) {
    const c = Number(f[1]);
    const key = `${c}\t${f[2]!}`;
    let inspection = byId.get(key);
    if (!inspection) {
      // A violation whose inspection row is not in the build (no inspection file, or a row missing from it):
      // listed on its own, dated by the violation, with what only the inspection row says unknown.
      inspection = {
        id: f[2]!,
        date: f[3]!,
        state: null,
        level: null,
        driver_oos: null,
        vehicle_oos: null,
        hazmat_oos: null,
        hazmat_placard: null,
        relevant: 0,
        listed: false,
        violations: [],
      };
      byId.set(key, inspection);
      eventsOf(c).inspections.push(inspection);
    }
    inspection.violations.push({
      date: f[3]!,
      code: f[4]!,
      basic: VIOLATION_BASICS[Number(f[5])]!,
      severity_weight: Number(f[6]),
      oos: f[7] === '1',
      oos_weight: Number(f[8]),
      description: orNull(f[9]),
    });
  }
  return out;
}
