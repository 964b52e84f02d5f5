// Waiting for a condition instead of sleeping: polls `check` until it holds, and fails naming what never
// happened. Returns the milliseconds it took.
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  { timeout = 30_000, interval = 20 }: { timeout?: number; interval?: number } = {},
): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeout) throw new Error(`timed out after ${timeout} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
  return performance.now() - started;
}
