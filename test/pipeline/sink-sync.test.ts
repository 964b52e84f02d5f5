// A publish flushes what it publishes before the renames that publish it (docs/contracts/common.md,
// "Builds"): each file, then each folder of the new tree (deepest first), then the output folder after the
// renames, so a machine that loses power right after a publish finds the old tree or the whole new one.
// Seen through the sink's effects, on the real file system.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileEffects, openSink, type SinkEffects } from '../../pipeline/core/sink.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** The file-system effects, each call noted as `op path` (paths relative to `root`). */
function recording(root: string): { effects: SinkEffects; ops: string[] } {
  const ops: string[] = [];
  const rel = (p: string) => relative(root, p) || '.';
  const effects: SinkEffects = {
    ...fileEffects,
    async writeFile(path, data, mode) {
      await fileEffects.writeFile(path, data, mode);
      ops.push(`write ${rel(path)}`);
    },
    async openWrite(path, mode) {
      const file = await fileEffects.openWrite(path, mode);
      return {
        write: (data) => file.write(data),
        close: async () => {
          await file.close();
          ops.push(`write ${rel(path)}`);
        },
      };
    },
    async sync(path) {
      await fileEffects.sync(path);
      ops.push(`sync ${rel(path)}`);
    },
    async rename(from, to) {
      await fileEffects.rename(from, to);
      ops.push(`rename ${rel(from)} ${rel(to)}`);
    },
  };
  return { effects, ops };
}

const manifest = {
  service: 'facilities' as const,
  data_version: '0123456789abcdef',
  built_at: '2026-01-01T00:00:00.000Z',
  demo: true,
  sources: [],
  counts: {},
};

describe('publish flushes the tree before renaming it in', () => {
  it('syncs every file, then every folder deepest first, before the rename; the output folder after it', async () => {
    const out = await mkdtemp(join(tmpdir(), 'shardline-sync-'));
    dirs.push(out);
    const { effects, ops } = recording(out);
    const sink = await openSink({ service: 'facilities', outDir: out, effects, compress: false });
    const tmp = relative(out, sink.dir);
    await sink.writeJson('ids.json', { next: 1, sources: {} }, 'facilities/ids');
    await sink.writeText('downloads/deep/facilities.csv', 'id\n1\n');
    const stream = await sink.openStream('index/records.dat');
    await stream.write(Buffer.from('records'));
    await stream.close();
    await sink.publish(manifest);

    const at = (op: string) => {
      const i = ops.indexOf(op);
      expect(i, `${op} in\n${ops.join('\n')}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const publishRename = at(`rename ${tmp} facilities`);
    const written = ops.filter((o) => o.startsWith(`write ${tmp}/`)).map((o) => o.slice('write '.length));
    expect(written.sort()).toEqual(
      [
        '404.json',
        'checksums.json',
        'downloads/deep/facilities.csv',
        'healthz.json',
        'ids.json',
        'index/records.dat',
        'manifest.json',
      ].map((f) => `${tmp}/${f}`),
    );
    for (const file of written) {
      expect(at(`sync ${file}`), file).toBeGreaterThan(at(`write ${file}`));
      expect(at(`sync ${file}`), file).toBeLessThan(publishRename);
    }
    const lastFileSync = Math.max(...written.map((f) => at(`sync ${f}`)));
    const folders = [`${tmp}/downloads/deep`, `${tmp}/downloads`, `${tmp}/index`, tmp];
    for (const folder of folders) {
      expect(at(`sync ${folder}`), folder).toBeGreaterThan(lastFileSync);
      expect(at(`sync ${folder}`), folder).toBeLessThan(publishRename);
    }
    // A folder after the ones inside it.
    expect(at(`sync ${tmp}/downloads/deep`)).toBeLessThan(at(`sync ${tmp}/downloads`));
    expect(at(`sync ${tmp}/downloads`)).toBeLessThan(at(`sync ${tmp}`));
    expect(at('sync .')).toBeGreaterThan(publishRename);
  });

  it('a second publish syncs the output folder after both renames (live to .prev, new tree in)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'shardline-sync-'));
    dirs.push(out);
    const first = await openSink({ service: 'facilities', outDir: out, compress: false });
    await first.publish(manifest);
    const { effects, ops } = recording(out);
    const sink = await openSink({ service: 'facilities', outDir: out, effects, compress: false });
    await sink.publish({ ...manifest, data_version: 'fedcba9876543210' });
    const toPrev = ops.indexOf('rename facilities facilities.prev');
    const lastSync = ops.lastIndexOf('sync .');
    expect(toPrev).toBeGreaterThanOrEqual(0);
    expect(lastSync).toBeGreaterThan(ops.indexOf(`rename ${relative(out, sink.dir)} facilities`));
    expect(lastSync).toBeGreaterThan(toPrev);
  });
});
