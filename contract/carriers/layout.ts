// Where the carriers build keeps what the server reads: URL paths of its documents, and the record stores
// of signed-in data (under private/, moved beside the tree at publish, contract/core/layout.ts).

/** The service's OpenAPI document. */
export const OPENAPI_PATH = '/api/openapi';
/** Every profile, by carrier_id (record store). */
export const PROFILES = 'private/profiles';
/** What search lists per carrier, by position in carrier_id order (record store). */
export const SEARCH_RECORDS = 'private/search-records';
/** Inspection and crash counts by month, for the premium export (record store; contract/carriers/monthly.ts). */
export const MONTHLY = 'private/monthly';
/**
 * Each carrier's inspections and crashes of the window, for `/api/carrier/{id}/inspections` (record store,
 * only carriers with an event; the record's format: contract/carriers/inspections.ts).
 */
export const INSPECTIONS = 'private/inspections';
/**
 * Docket → carriers (record store keyed by contract/carriers/dockets.ts toDocketKey): a JSON array of carrier
 * numbers, the docket's current holder first, then those that held it before, latest first.
 */
export const DOCKETS = 'private/dockets';
