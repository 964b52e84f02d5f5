// CSV text as the upstreams write it (minimal quoting, RFC 4180), for the demo generators: the project's one
// writer, under the name the generators import.
export { toCsvField, toCsvLine } from '../../contract/core/csv.ts';
