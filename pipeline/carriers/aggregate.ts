// Streaming aggregation of the SMS files into per-carrier sums, in typed arrays indexed by the carrier's
// position among the census DOT numbers (sorted). Inspections and crashes are added as they stream by.
// Violations need grouping by inspection (the methodology caps the severity of one inspection in one BASIC),
// and the file is not sorted by inspection, so they are spilled into partitions by inspection id on disk
// and grouped one partition at a time: memory stays bounded by a partition, never by the whole file.
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { isAlive } from '../core/lock.ts';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fnv1a } from '../../contract/core/hash.ts';
import { indexOfSorted } from '../../contract/core/sorted.ts';
import { MonthlyCounter } from './monthly.ts';
import type { CarrierAggregate, CrashRow, InspectionRow, ViolationRow } from './types.ts';
import type { EventSink } from './carrier-events.ts';
import { BASICS, type Basic, type ViolationBasic } from '../../contract/carriers/basics.ts';

/** The methodology's numbers the aggregation needs (from pipeline/carriers/methodology.ts). */
export interface AggregationRules {
  /** 3, 2 or 1 by age relative to the as-of date; 0 outside the window. */
  timeWeight(date: string): number;
  /** Severity of one inspection in one BASIC is capped at this sum. */
  severityCap: number;
  /** Crash severity weight (tow-away 1, injury or fatality 2, +1 hazmat release). */
  crashSeverity(row: CrashRow): number;
  isDriverInspection(level: number | null): boolean;
  isVehicleInspection(level: number | null): boolean;
  /** True when the date is within the last 12 months (HM carrier rule). */
  isRecent(date: string): boolean;
  /** The first date inside the window (events on or after it weigh more than 0), for the monthly counts. */
  windowFrom: string;
}

const B = BASICS.length;
const BASIC_INDEX = new Map<Basic, number>(BASICS.map((b, i) => [b, i]));
const CRASH = BASIC_INDEX.get('crash_indicator')!;
const PARTITIONS = 16;

/** The spill folders in the system's temporary folder: `shardline-violations-<pid>-XXXXXX`. */
export const SPILL_PREFIX = 'shardline-violations-';

/**
 * Removes the spill folders of builds that were killed (a signal leaves no chance to clean up): those whose
 * process is gone. At full size one holds millions of violation rows.
 */
export function sweepStaleSpills(dir = tmpdir()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^shardline-violations-(\d+)-/.exec(name);
    if (m && !isAlive(Number(m[1]))) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** Closes a spill folder's files (those still open) and removes it: a build's spills end this way. */
export function removeSpill(spill: { dir: string; fds: readonly number[] }): void {
  for (const fd of spill.fds) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
  }
  rmSync(spill.dir, { recursive: true, force: true });
}

/** Sorted carrier numbers and a binary search into them. */
export class CarrierIndex {
  constructor(readonly dots: Uint32Array) {}
  indexOf(dot: number): number {
    return indexOfSorted(this.dots, dot);
  }
}

export type AddResult =
  | 'used'
  | 'unknown_carrier'
  | 'outside_window'
  | 'no_basic'
  | 'duplicate_inspection'
  | 'duplicate_crash';

export class Aggregator {
  private readonly n: number;
  private readonly insp = {
    total: 0,
    driver: 0,
    vehicle: 0,
    hazmat: 0,
    with_violations: 0,
    driver_oos: 0,
    vehicle_oos: 0,
    hazmat_oos: 0,
  };
  private readonly inspArrays: Record<keyof typeof this.insp, Uint32Array>;
  private readonly hazmat12m: Uint32Array;
  private readonly crashArrays: { total: Uint32Array; fatal: Uint32Array; injury: Uint32Array; tow_away: Uint32Array };
  /** Per carrier × BASIC, row-major (carrier * 7 + basic). */
  private readonly relevant: Uint32Array;
  private readonly relevantTw: Float64Array;
  private readonly withViolations: Uint32Array;
  private readonly violations: Uint32Array;
  private readonly weighted: Float64Array;
  /** Latest violation date per carrier × BASIC as days since 1970 (−1: none). */
  private readonly lastViolation: Int32Array;
  private spill: { dir: string; fds: number[]; buffers: string[] } | undefined;
  private spilled = 0;
  /** Crashes counted but kept out of the Crash Indicator measure. */
  notPreventable = 0;
  /** Inspections and crashes of the window by calendar month, for the export. */
  readonly monthly: MonthlyCounter;

  constructor(
    readonly carriers: CarrierIndex,
    private readonly rules: AggregationRules,
    /** Where each event of the window is also kept, per carrier (the inspection list and the step-down). */
    private readonly events?: EventSink,
  ) {
    this.n = carriers.dots.length;
    const u32 = () => new Uint32Array(this.n);
    this.inspArrays = {
      total: u32(),
      driver: u32(),
      vehicle: u32(),
      hazmat: u32(),
      with_violations: u32(),
      driver_oos: u32(),
      vehicle_oos: u32(),
      hazmat_oos: u32(),
    };
    this.hazmat12m = u32();
    this.crashArrays = { total: u32(), fatal: u32(), injury: u32(), tow_away: u32() };
    this.relevant = new Uint32Array(this.n * B);
    this.relevantTw = new Float64Array(this.n * B);
    this.withViolations = new Uint32Array(this.n * B);
    this.violations = new Uint32Array(this.n * B);
    this.weighted = new Float64Array(this.n * B);
    this.lastViolation = new Int32Array(this.n * B).fill(-1);
    this.monthly = new MonthlyCounter(this.n, rules.windowFrom);
  }

  addInspection(row: InspectionRow): AddResult {
    const c = this.carriers.indexOf(row.dot);
    if (c < 0) return 'unknown_carrier';
    const tw = this.rules.timeWeight(row.date);
    if (tw === 0) return 'outside_window';
    const a = this.inspArrays;
    a.total[c]!++;
    this.monthly.add(c, row.date, 'inspection');
    if (this.rules.isDriverInspection(row.level)) a.driver[c]!++;
    if (this.rules.isVehicleInspection(row.level)) a.vehicle[c]!++;
    if (row.hazmat_placard) {
      a.hazmat[c]!++;
      if (this.rules.isRecent(row.date)) this.hazmat12m[c]!++;
    }
    if (row.with_violations) a.with_violations[c]!++;
    this.events?.inspection(c, row);
    if (row.driver_oos > 0) a.driver_oos[c]!++;
    if (row.vehicle_oos > 0) a.vehicle_oos[c]!++;
    if (row.hazmat_oos > 0) a.hazmat_oos[c]!++;
    for (const [basic, relevant] of Object.entries(row.relevant) as [ViolationBasic, boolean][]) {
      if (!relevant) continue;
      const k = c * B + BASIC_INDEX.get(basic)!;
      this.relevant[k]!++;
      this.relevantTw[k]! += tw;
    }
    return 'used';
  }

  addCrash(row: CrashRow): AddResult {
    const c = this.carriers.indexOf(row.dot);
    if (c < 0) return 'unknown_carrier';
    const tw = this.rules.timeWeight(row.date);
    if (tw === 0) return 'outside_window';
    this.events?.crash(c, row);
    const a = this.crashArrays;
    a.total[c]!++;
    this.monthly.add(c, row.date, 'crash');
    if (row.fatalities > 0) a.fatal[c]!++;
    if (row.injuries > 0) a.injury[c]!++;
    if (row.tow_away) a.tow_away[c]!++;
    // Crashes FMCSA found not preventable stay in the counts but leave the Crash Indicator measure
    // (SMS Methodology, Crash Preventability Determination Program).
    if (row.not_preventable) {
      this.notPreventable++;
      return 'used';
    }
    const k = c * B + CRASH;
    this.relevant[k]!++;
    this.violations[k]!++;
    this.withViolations[k]!++;
    this.weighted[k]! += tw * this.rules.crashSeverity(row);
    this.relevantTw[k]! += tw;
    this.lastViolation[k] = Math.max(this.lastViolation[k]!, toDays(row.date));
    return 'used';
  }

  /**
   * Spills the violation into its partition; the sums are made in `finish`. Synchronous, with a buffer per
   * partition written out at 1 MiB, so the CSV reader's pace is the disk's and memory stays flat.
   */
  addViolation(row: ViolationRow): AddResult {
    if (row.basic === null) return 'no_basic';
    const c = this.carriers.indexOf(row.dot);
    if (c < 0) return 'unknown_carrier';
    const tw = this.rules.timeWeight(row.date);
    if (tw === 0) return 'outside_window';
    this.events?.violation(c, row);
    if (!this.spill) {
      sweepStaleSpills();
      const dir = mkdtempSync(join(tmpdir(), `${SPILL_PREFIX}${process.pid}-`));
      this.spill = {
        dir,
        fds: Array.from({ length: PARTITIONS }, (_, i) => openSync(join(dir, `${i}.tsv`), 'w')),
        buffers: Array.from({ length: PARTITIONS }, () => ''),
      };
    }
    const severity = row.severity_weight + (row.oos ? row.oos_weight : 0);
    // The code is clean text (whitespace collapsed: no tab or line break), '' when the row had none.
    const line = `${row.unique_id}\t${c}\t${BASIC_INDEX.get(row.basic)!}\t${tw}\t${severity}\t${toDays(row.date)}\t${row.code}\n`;
    const p = fnv1a(row.unique_id) % PARTITIONS;
    const buffered = this.spill.buffers[p]! + line;
    if (buffered.length >= 1 << 20) {
      writeSync(this.spill.fds[p]!, buffered);
      this.spill.buffers[p] = '';
    } else this.spill.buffers[p] = buffered;
    this.spilled++;
    return 'used';
  }

  /** Removes the spill folder of a build that stops before `finish` (a failed input); safe to call twice. */
  dispose(): void {
    if (!this.spill) return;
    removeSpill(this.spill);
    this.spill = undefined;
  }

  /**
   * Groups the spilled violations by inspection and BASIC, applying the severity cap. A violation code cited
   * more than once in one inspection (several counts of it, or a row repeated) counts once, with the
   * highest severity of its rows (methodology file, `severity.rule`); a row without a code cannot be told
   * apart from others and always counts. `violations` is the violations counted, `repeats` those that
   * were not.
   */
  async finish(
    onProgress?: (partition: number) => void,
  ): Promise<{ violations: number; groups: number; repeats: number }> {
    if (!this.spill) return { violations: 0, groups: 0, repeats: 0 };
    const { dir, fds, buffers } = this.spill;
    fds.forEach((fd, p) => {
      if (buffers[p]) writeSync(fd, buffers[p]!);
      closeSync(fd);
    });
    let groups = 0;
    let repeats = 0;
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const text = await readFile(join(dir, `${p}.tsv`), 'utf8');
        // Per inspection and BASIC: the severity sum, and each code cited with the severity counted for it
        // (a group holds a few codes: a list beats a map of every cite of the partition).
        const sums = new Map<
          string,
          { k: number; tw: number; severity: number; codes: string[]; severities: number[] }
        >();
        let start = 0;
        while (start < text.length) {
          const end = text.indexOf('\n', start);
          const [uid, c, b, tw, sevText, days, code] = text.slice(start, end).split('\t');
          start = end + 1;
          const k = Number(c) * B + Number(b);
          const key = `${uid}\t${b}`;
          const sev = Number(sevText);
          const g = sums.get(key);
          if (g && code) {
            const i = g.codes.indexOf(code);
            if (i >= 0) {
              repeats++;
              // A repeat with a higher severity (out of service where the first was not) replaces it.
              const counted = g.severities[i]!;
              if (sev > counted) {
                g.severity += sev - counted;
                g.severities[i] = sev;
              }
              continue;
            }
          }
          this.violations[k]!++;
          this.lastViolation[k] = Math.max(this.lastViolation[k]!, Number(days));
          if (g) {
            g.severity += sev;
            if (code) {
              g.codes.push(code);
              g.severities.push(sev);
            }
          } else
            sums.set(key, {
              k,
              tw: Number(tw),
              severity: sev,
              codes: code ? [code] : [],
              severities: code ? [sev] : [],
            });
        }
        for (const g of sums.values()) {
          this.withViolations[g.k]!++;
          this.weighted[g.k]! += g.tw * Math.min(g.severity, this.rules.severityCap);
        }
        groups += sums.size;
        onProgress?.(p);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      this.spill = undefined;
    }
    return { violations: this.spilled - repeats, groups, repeats };
  }

  /** The aggregate of the carrier at position `c` (materialized on demand, one at a time). */
  toAggregate(c: number): CarrierAggregate {
    const a = this.inspArrays;
    const basics = {} as CarrierAggregate['basics'];
    BASICS.forEach((basic, b) => {
      const k = c * B + b;
      const last = this.lastViolation[k]!;
      basics[basic] = {
        relevant: this.relevant[k]!,
        relevant_tw: this.relevantTw[k]!,
        with_violations: this.withViolations[k]!,
        violations: this.violations[k]!,
        weighted: Math.round(this.weighted[k]! * 1e6) / 1e6,
        last_violation: last < 0 ? null : fromDays(last),
      };
    });
    return {
      dot: this.carriers.dots[c]!,
      inspections: {
        total: a.total[c]!,
        driver: a.driver[c]!,
        vehicle: a.vehicle[c]!,
        hazmat: a.hazmat[c]!,
        with_violations: a.with_violations[c]!,
        driver_oos: a.driver_oos[c]!,
        vehicle_oos: a.vehicle_oos[c]!,
        hazmat_oos: a.hazmat_oos[c]!,
      },
      hazmat_placard_12m: this.hazmat12m[c]!,
      crashes: {
        total: this.crashArrays.total[c]!,
        fatal: this.crashArrays.fatal[c]!,
        injury: this.crashArrays.injury[c]!,
        tow_away: this.crashArrays.tow_away[c]!,
      },
      basics,
      monthly: {},
    };
  }
}

/** ISO date → days since 1970, once per distinct date (millions of rows share a few hundred). */
const dayOfIso = new Map<string, number>();
function toDays(iso: string): number {
  let days = dayOfIso.get(iso);
  if (days === undefined) {
    days = Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
    dayOfIso.set(iso, days);
  }
  return days;
}

/** Days since 1970 → ISO date; a window holds a few hundred distinct days, each formatted once. */
const isoOfDay = new Map<number, string>();
function fromDays(days: number): string {
  const known = isoOfDay.get(days);
  if (known) return known;
  const iso = fromDaysUncached(days);
  isoOfDay.set(days, iso);
  return iso;
}

function fromDaysUncached(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}
