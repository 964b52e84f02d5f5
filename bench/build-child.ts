// Child process for one build job (demo inputs, or a build): run alone so that its peak RSS, read from
// process.resourceUsage() at the end, belongs to that job only.
import { readdirSync } from 'node:fs';
import { createProgress } from '../pipeline/core/progress.ts';
import { PIPELINES, writeDemo } from '../pipeline/services.ts';
import type { BuildDone, BuildJob, ChildMessage, ParentMessage } from './protocol.ts';

const send = (m: ChildMessage) => new Promise<void>((resolve) => process.send!(m, () => resolve()));

async function run(job: BuildJob): Promise<BuildDone> {
  const start = performance.now();
  if (job.mode === 'demo') {
    const progress = createProgress(`demo ${job.service} x${job.scale}`);
    progress.stage(`writing inputs to ${job.dir}`);
    await writeDemo(job.service, job.dir, {
      scale: job.scale,
      seed: job.seed,
      edition: job.edition,
      onProgress: (m) => progress.tick(m),
    });
    return {
      type: 'done',
      ms: performance.now() - start,
      maxRssKb: process.resourceUsage().maxRSS,
      files: readdirSync(job.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length,
    };
  }
  const pipeline = PIPELINES[job.service];
  if (!pipeline) throw new Error(`no pipeline for ${job.service}`);
  const result = await pipeline.build({
    input: job.input,
    outDir: job.outDir,
    year: job.year,
    demo: job.demo,
    progress: createProgress(`build ${job.service}`),
  });
  return {
    type: 'done',
    ms: performance.now() - start,
    maxRssKb: process.resourceUsage().maxRSS,
    counts: result.counts,
    dataVersion: result.data_version,
  };
}

if (!process.send) throw new Error('bench/build-child.ts is started by bench/run.ts, with an IPC channel');
// The bench going away (killed, Ctrl-C) closes the channel: stop at once rather than build for nobody.
process.on('disconnect', () => process.exit(1));
process.once('message', (m: ParentMessage) => {
  if (m.type !== 'build') return;
  run(m.job).then(
    (done) => send(done).finally(() => process.exit(0)),
    (err: Error) => send({ type: 'error', message: err.stack ?? String(err) }).finally(() => process.exit(1)),
  );
});
