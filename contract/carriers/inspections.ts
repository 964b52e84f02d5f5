// The record behind `GET /api/carrier/{id}/inspections` (schema `carriers/inspections`): a first line with
// the inspection count and the crashes, then one inspection a line, newest first. A page is the lines it
// needs, sliced from the record's bytes: a carrier with thousands of inspections is never parsed whole.
import type { CarrierInspectionsAndCrashes as CarrierInspections } from '../types/carriers/inspections.ts';

export type InspectionsDocument = CarrierInspections;
export type ListedInspection = NonNullable<CarrierInspections['inspections']>[number];
export type ListedCrash = NonNullable<CarrierInspections['crashes']>[number];

/** The record's first line. `total` null: the build had no inspection and no violation input. */
export interface InspectionsHead {
  total: number | null;
  crashes: ListedCrash[] | null;
}

export function toInspectionsRecord(head: InspectionsHead, inspections: readonly ListedInspection[]): string {
  return [JSON.stringify(head), ...inspections.map((i) => JSON.stringify(i))].join('\n');
}

/** The head and the inspection lines `offset` to `offset + limit` of a record, as JSON texts. */
export function sliceInspectionsRecord(
  record: string,
  offset: number,
  limit: number,
): { head: InspectionsHead; lines: string[] } {
  let end = record.indexOf('\n');
  const head = JSON.parse(end < 0 ? record : record.slice(0, end)) as InspectionsHead;
  const lines: string[] = [];
  let line = 0;
  while (end >= 0 && lines.length < limit) {
    const start = end + 1;
    end = record.indexOf('\n', start);
    if (line++ >= offset) lines.push(end < 0 ? record.slice(start) : record.slice(start, end));
  }
  return { head, lines };
}
