// Request headers as received (IncomingMessage.rawHeaders), for what Node's parsed `headers` hide.

/**
 * True when the header `lowerName` (lower case) comes more than once. Node keeps only the first of some
 * headers (Host, Authorization) in `headers`, and a proxy in front may act on another, so such a request
 * is refused where it matters. A loop over the raw names, about ten.
 */
export function repeatsHeader(rawHeaders: readonly string[] | undefined, lowerName: string): boolean {
  if (!rawHeaders) return false;
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName && ++seen > 1) return true;
  }
  return false;
}
