// The change record's operations (docs/contracts/changes.md), described once for every service that serves it:
// `…/changes` and one entity's history.
import { NO_STORE, PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { type OperationSpec, type ParameterSpec, problem, type ResponseSpec } from './openapi.ts';

export function changeOperations(options: {
  base: string;
  tag: string;
  /** The entity's history path (`/api/v1/facility/{id}/history`) and its path parameter. */
  historyPath: string;
  idParameter: ParameterSpec;
  /** What an entity is, in the plural (`facilities`). */
  entities: string;
  /** A signed-in record (carriers): the API key's responses, and no shared caching. */
  signedIn?: { responses: Record<number, ResponseSpec>; note: string };
}): OperationSpec[] {
  const json = (schema: string, description: string) => ({
    description,
    content: { 'application/json': schema },
    headers: ['ETag' as const],
    cache: options.signedIn ? NO_STORE : PUBLIC_CACHE,
  });
  const signedIn = options.signedIn
    ? { security: 'bearer' as const, note: ` ${options.signedIn.note}`, responses: options.signedIn.responses }
    : { note: '', responses: {} };
  return [
    {
      method: 'get',
      path: `${options.base}/changes`,
      operationId: 'getChanges',
      summary: 'What changed between builds',
      tag: options.tag,
      description: `Every change to the ${options.entities} in the builds after \`since\` up to the build served, oldest first (by build, then by id), from the change record each build carries (the last 400 builds; \`changes/index.json\` and the feeds \`changes/feed.atom\` and \`changes/feed.json\` are files of the tree). Without \`since\`, the builds of the last 30 days.${signedIn.note}`,
      query: 'core/changes-query',
      ...(signedIn.security && { security: signedIn.security }),
      responses: {
        ...signedIn.responses,
        200: json('core/changes', 'The changes, paged by `limit` and `offset`.'),
        400: problem(
          400,
          ['invalid_parameter'],
          'A malformed `since` (neither a data_version nor a real day), `id` or `notable`, or a `limit` out of 1–1,000; `errors` lists each.',
        ),
        404: problem(404, ['not_found'], 'A `since` naming a build this history never had.'),
        410: problem(
          410,
          ['history_expired'],
          'A `since` older than the kept history (the build before its oldest, or a day before it).',
        ),
      },
    },
    {
      method: 'get',
      path: options.historyPath,
      operationId: 'getHistory',
      summary: 'One entity’s history',
      tag: options.tag,
      description: `Every change to this entity in the kept history, oldest first: each with its build’s data_version and time, its kind and the fields that moved (\`from\`, \`to\`). Empty for one that has not changed since the history began.${signedIn.note}`,
      parameters: [options.idParameter],
      ...(signedIn.security && { security: signedIn.security }),
      responses: {
        ...signedIn.responses,
        200: json('core/history', 'The history.'),
        404: problem(404, ['not_found'], 'An id neither in the build served nor in its history (malformed ones too).'),
      },
    },
  ];
}
