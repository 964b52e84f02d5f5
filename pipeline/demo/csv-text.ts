// CSV text as the upstreams write it, for the demo generators.

/** Minimal quoting (RFC 4180): only fields holding a comma, a quote or a line break are quoted. */
export function toCsvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

export const toCsvLine = (fields: readonly string[]) => fields.map(toCsvField).join(',');
