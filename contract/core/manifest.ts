// The manifest of a build: what it was made from and when (docs/contracts/common.md, "Versions").
import type { Health } from '../types/core/health.ts';
import type { BuildManifest } from '../types/core/manifest.ts';
import { sha256 } from './hash.ts';

/** A build's manifest.json (schemas/core/manifest.schema.json). */
export type Manifest = BuildManifest;
/** One entry of `sources`, with its licence and attribution (contract/core/licences.ts). */
export type Source = Manifest['sources'][number];
/** A file the build read. */
export type SourceFile = Source & { file: string; sha256: string; upstream?: never };
/** A service the server reads at request time (economy's observations): no file of it was read. */
export type UpstreamSource = Omit<Source, 'file' | 'bytes' | 'sha256' | 'encoding'> & { upstream: true };

/**
 * data_version: a hash of the inputs' bytes, the options that change the output and the build code, so two
 * builds of the same inputs with the same code share a version whatever the clock says. The demo label
 * changes the output (manifest, /healthz, the data version line), so a demo build of some files and a real
 * build of the same files have different versions.
 */
export function toDataVersion(
  sources: readonly (SourceFile | UpstreamSource)[],
  options: Record<string, unknown>,
  codeHash: string,
): string {
  // An upstream is read at request time: what the build knows of it is in the code and the registry file.
  const inputs = sources.flatMap((s) => (s.upstream ? [] : [s.sha256])).sort();
  return sha256(JSON.stringify({ inputs, options, codeHash })).slice(0, 16);
}

export function toManifest(args: {
  service: Manifest['service'];
  demo: boolean;
  sources: (SourceFile | UpstreamSource)[];
  options: Record<string, unknown>;
  counts: Record<string, number>;
  codeHash: string;
  builtAt: Date;
  /**
   * Anything else the output depends on that is no input file or option (the ids a facilities build
   * carries over from the previous one): part of the data version, not written in the manifest.
   */
  carried?: Record<string, unknown>;
}): Omit<Manifest, 'format' | 'files' | 'checksums_sha256'> {
  // Files by path, then the upstreams by kind.
  const key = (s: SourceFile | UpstreamSource) => (s.upstream ? `\u{10FFFF}${s.kind}` : s.file);
  const sources = [...args.sources].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return {
    service: args.service,
    data_version: toDataVersion(
      sources,
      { ...args.options, ...(args.demo ? { demo: true } : {}), ...(args.carried ? { carried: args.carried } : {}) },
      args.codeHash,
    ),
    built_at: args.builtAt.toISOString(),
    demo: args.demo,
    options: args.options,
    sources,
    counts: args.counts,
  };
}

/** GET /healthz (schemas/core/health.schema.json). */
export type { Health };
/** One check of GET /healthz (docs/contracts/common.md, "Health"). */
export type HealthCheck = Health['checks'][number];

/**
 * Each service's checks as they read when all is well: what the tree's healthz.json holds, and what the
 * server answers while nothing is wrong (the same bytes). A server replaces a check that is not ok.
 */
export function healthyChecks(service: string): HealthCheck[] {
  const checks: HealthCheck[] = [{ name: 'build', status: 'ok', detail: 'serving a verified build' }];
  if (service === 'carriers') checks.push({ name: 'account_store', status: 'ok', detail: 'reachable' });
  if (service === 'economy')
    checks.push({ name: 'upstream_pulls', status: 'ok', detail: 'no series whose last pull failed within the hour' });
  return checks;
}

/**
 * GET /healthz's body for a build, exactly the keys of docs/contracts/common.md: the server's answer, and the
 * tree's healthz.json. No build time: the tree is byte-identical for the same inputs and code (the
 * manifest says when it was built). `degraded` when a check is.
 */
export function toHealth(
  m: Pick<Manifest, 'service' | 'data_version' | 'demo'>,
  checks: HealthCheck[] = healthyChecks(m.service),
): Health {
  return {
    status: checks.every((c) => c.status === 'ok') ? 'ok' : 'degraded',
    service: m.service,
    data_version: m.data_version,
    demo: m.demo,
    checks,
  };
}
