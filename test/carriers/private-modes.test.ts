// Private files (docs/contracts/common.md, "Limits on what comes in"): the signed-in data a carriers build
// keeps beside its tree is its owner's alone from the moment it is written: folders 0700, files 0600.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateRoot } from '../../contract/core/layout.ts';
import { readOnlyCarriersFixture } from '../helpers/carriers.ts';

/** Every folder and file under `dir`, with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  const out = [{ path: dir, dir: true, mode: statSync(dir).mode & 0o777 }];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...modes(path));
    else out.push({ path, dir: false, mode: statSync(path).mode & 0o777 });
  }
  return out;
}

describe.skipIf(process.platform === 'win32')('carriers private files', () => {
  it('are 0600 in 0700 folders, the public tree readable as before', async () => {
    const fx = await readOnlyCarriersFixture();
    try {
      const all = modes(privateRoot(fx.buildDir));
      expect(all.filter((m) => !m.dir).length).toBeGreaterThan(2);
      for (const m of all)
        expect({ path: m.path, mode: m.mode.toString(8) }).toEqual({ path: m.path, mode: m.dir ? '700' : '600' });
      expect(statSync(join(fx.buildDir, 'manifest.json')).mode & 0o004).toBe(0o004);
    } finally {
      await fx.root.remove();
    }
  });
});
