// `GET /api/carrier/{id}/inspections` (schema `carriers/inspections`): a page of the carrier's inspections in
// the window with their violations, and its crashes. Signed in, and a free key's answer counts one profile
// lookup: the same gate as the profile (lookupProfile), with the page's parameters checked before anything
// is counted. The page is sliced from the stored record (contract/carriers/inspections.ts).
import { type InspectionsHead, sliceInspectionsRecord } from '../../contract/carriers/inspections.ts';
import { methodology } from '../../contract/carriers/methodology.ts';
import type { DataGap } from '../../contract/carriers/profile.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { type Payload, toPayload } from '../core/payload.ts';
import type { RecordStore } from '../core/record-store.ts';

export interface InspectionsQuery {
  limit?: number;
  offset?: number;
}

/** `limit` when the request gives none (schema carriers/inspections-query). */
export const INSPECTIONS_LIMIT = 25;

export function parseInspectionsQuery(req: { search: string }): Required<InspectionsQuery> {
  const q = parseQuery<InspectionsQuery>(queryOf(req), 'carriers/inspections-query');
  return { limit: q.limit ?? INSPECTIONS_LIMIT, offset: q.offset ?? 0 };
}

/** What the page needs of the profile: the build's date and its missing inputs. */
interface ProfileFacts {
  data_as_of: string;
  data_gaps: DataGap[];
}

/** Inspections `offset` to `offset + limit` of the carrier's record (as JSON lines), its count and its crashes. */
export async function readInspections(
  store: RecordStore,
  id: number,
  gaps: readonly DataGap[],
  offset: number,
  limit: number,
): Promise<{ head: InspectionsHead; lines: string[] }> {
  const record = await store.read(id);
  if (record) return sliceInspectionsRecord(record.toString('utf8'), offset, limit);
  // No event of the carrier in the window: empty lists, or null for what the build had no input for.
  return {
    head: {
      total: gaps.includes('inspections') && gaps.includes('violations') ? null : 0,
      crashes: gaps.includes('crashes') ? null : [],
    },
    lines: [],
  };
}

/** `"inspections":[...] or null,"crashes":[...] or null`: the lists as the page and the export write them. */
export function toListsJson(head: InspectionsHead, lines: readonly string[]): string {
  return `"inspections":${head.total === null ? 'null' : `[${lines.join(',')}]`},"crashes":${JSON.stringify(head.crashes)}`;
}

/** The page's body, from the carrier's record in `store` and its profile. */
export async function inspectionsPayload(
  store: RecordStore,
  dataVersion: string,
  id: number,
  profile: Buffer,
  page: Required<InspectionsQuery>,
): Promise<Payload> {
  const facts = JSON.parse(profile.toString('utf8')) as ProfileFacts;
  const gaps = facts.data_gaps;
  const { head, lines } = await readInspections(store, id, gaps, page.offset, page.limit);
  const body =
    `{"carrier_id":${id},"data_as_of":${JSON.stringify(facts.data_as_of)},` +
    `"window_months":${methodology().time_weights.window_months},"total":${head.total},` +
    `"limit":${page.limit},"offset":${page.offset},${toListsJson(head, lines)},` +
    `"data_gaps":${JSON.stringify(gaps)}}`;
  return toPayload(body, 'application/json', true, `${dataVersion}\0${id}\0${page.offset}\0${page.limit}`);
}
