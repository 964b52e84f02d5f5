// URL paths of the facilities build's documents that the server names.

/** The service's OpenAPI document (a file of the tree, as every GET without a query is). */
export const OPENAPI_PATH = '/api/v1/openapi.json';
