// Later editions of the facilities demo (pipeline/demo/facilities/editions.ts): the same seed, a few past figures
// revised, one facility retired and one added per edition, which a build after the last records as changes.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesBuild, ChangesIndex } from '../../contract/core/changes.ts';
import { main as demoCli } from '../../pipeline/demo/cli.ts';
import { FACILITY_DEMO_FILES, writeFacilitiesDemo } from '../../pipeline/demo/facilities/index.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'shardline-editions-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('facilities demo editions', () => {
  it('writes edition 1 as the demo always was, and edition 2 from the same seed with its changes named', async () => {
    const [plain, first, second] = ['plain', 'first', 'second'].map((d) => join(root, d));
    await writeFacilitiesDemo(plain!);
    const one = await writeFacilitiesDemo(first!, { edition: 1 });
    for (const f of FACILITY_DEMO_FILES)
      expect((await readFile(join(first!, f))).equals(await readFile(join(plain!, f))), f).toBe(true);
    expect(one.facts.editions).toBeUndefined();
    const two = await writeFacilitiesDemo(second!, { edition: 2 });
    expect(two.facts.editions).toHaveLength(1);
    const [e2] = two.facts.editions!;
    expect(e2!.revised).toHaveLength(3);
    expect(e2!.retired).toHaveLength(1);
    expect(e2!.added).toHaveLength(1);
    expect(two.facts.ontarioOnly).not.toContain(e2!.retired[0]);
    expect(two.facts.ontarioOnly).toContain(e2!.added[0]);
    // A new id, never one a facility had before.
    expect(one.facts.ontarioOnly).not.toContain(e2!.added[0]);
    expect(Number(e2!.added[0])).toBeGreaterThan(Math.max(...one.facts.ontarioOnly.map(Number)));
  });

  it('gives a build after edition 1 the changes edition 2 made', async () => {
    const input = join(root, 'input');
    const outDir = join(root, 'out');
    await writeFacilitiesDemo(input, { edition: 1 });
    await buildFacilities({ input, outDir, now: () => new Date('2026-01-01T00:00:00Z') });
    const { facts } = await writeFacilitiesDemo(input, { edition: 2 });
    const second = await buildFacilities({ input, outDir, now: () => new Date('2026-02-01T00:00:00Z') });
    const dir = join(outDir, 'facilities');
    const index = JSON.parse(readFileSync(join(dir, 'changes/index.json'), 'utf8')) as ChangesIndex;
    expect(index.builds).toHaveLength(2);
    const page = JSON.parse(readFileSync(join(dir, `changes/${second.data_version}.json`), 'utf8')) as ChangesBuild;
    const ids = (JSON.parse(readFileSync(join(dir, 'ids.json'), 'utf8')) as { sources: Record<string, string> })
      .sources;
    const [e2] = facts.editions!;
    const kindOf = (ontario: string) => page.changes.find((c) => c.id === ids[`ontario:${ontario}`])?.kind;
    expect(kindOf(e2!.retired[0]!)).toBe('removed');
    expect(kindOf(e2!.added[0]!)).toBe('added');
    for (const r of e2!.revised) {
      const change = page.changes.find((c) => c.id === ids[`ontario:${r.ontario}`]);
      expect(change?.notable, `${r.ontario} ${r.year}`).toContain('total_revised');
      expect(change?.fields.some((f) => f.path === `/series/${r.year}/ontario`)).toBe(true);
    }
  });

  it('refuses an edition out of range, written as a number from 1 to 100', async () => {
    await expect(writeFacilitiesDemo(join(root, 'bad'), { edition: 0 })).rejects.toThrow(/edition must be an integer/);
    await expect(demoCli(['--out', join(root, 'cli'), '--edition', '2.5'])).rejects.toThrow(/--edition must be/);
    await expect(demoCli(['--out', join(root, 'cli'), '--edition', '101'])).rejects.toThrow(/--edition must be/);
  });
});
