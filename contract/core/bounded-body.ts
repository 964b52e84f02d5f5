// A response body read with a cap: refused at once when Content-Length is over it, else as soon as the bytes
// read pass it, the rest cancelled. Memory stays bounded by the cap, not by what the other side sends.

/** The body's text, or why it was refused (`Content-Length 900000`, `over 65536 bytes read`). */
export async function readBodyCapped(res: Response, max: number): Promise<{ text: string } | { refused: string }> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    return { refused: `Content-Length ${declared}` };
  }
  if (!res.body) return { text: '' };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel().catch(() => undefined);
      return { refused: `over ${max} bytes read` };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks, bytes).toString('utf8') };
}
