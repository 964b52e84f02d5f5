// Where economy's data comes from, and under what licence (contract/core/licences.ts; sources in the
// docs/data-sources.md). The build reads one file, the registry, which is the project's own;
// the observations come from Statistics Canada's Web Data Service and the Bank of Canada's Valet API at
// request time, so each upstream the registry names is a source of the manifest too. The vintage archive is
// the server's own snapshots of those observations: the project's file, its observations still the
// publishers'.
import {
  BOC_ATTRIBUTION,
  BOC_TERMS,
  PROJECT_ATTRIBUTION,
  PROJECT_LICENCE,
  PROJECT_PUBLISHER,
  STATCAN_OPEN_LICENCE,
  toStatcanAttribution,
  type Provenance,
} from '../../contract/core/licences.ts';
import type { UpstreamSource } from '../../contract/core/manifest.ts';
import type { RegistryEntry } from '../../contract/economy/types.ts';
import { STATCAN_WDS_DEFAULT_URL } from '../../contract/economy/upstream/statcan.ts';
import { BOC_VALET_DEFAULT_URL } from '../../contract/economy/upstream/valet.ts';

const PROJECT: Pick<Provenance, 'publisher' | 'licence'> = {
  publisher: PROJECT_PUBLISHER,
  licence: { name: PROJECT_LICENCE.name, url: PROJECT_LICENCE.url },
};

export const REGISTRY_PROVENANCE: Provenance = {
  title: 'The reviewed series registry',
  ...PROJECT,
  attribution: PROJECT_ATTRIBUTION,
};

export const VINTAGES_PROVENANCE: Provenance = {
  title: "The server's daily snapshots of the registry's series (vintage archive)",
  ...PROJECT,
  attribution: `${PROJECT_ATTRIBUTION} The observations in the snapshots are the upstreams' and stay under their licences and attributions (Statistics Canada, Bank of Canada).`,
};

/** Each upstream the registry reads series from, with the number of series and its publisher's terms. */
export function toUpstreamSources(entries: readonly RegistryEntry[]): UpstreamSource[] {
  const out: UpstreamSource[] = [];
  const statcan = entries.filter((e) => e.source === 'STATCAN');
  if (statcan.length > 0) {
    const tables = [...new Set(statcan.flatMap((e) => e.tableId ?? []))].sort();
    const product = tables.length ? `table${tables.length === 1 ? '' : 's'} ${tables.join(', ')}` : 'WDS series';
    out.push({
      kind: 'statcan_wds',
      rows: statcan.length,
      url: STATCAN_WDS_DEFAULT_URL,
      upstream: true,
      title: 'Web Data Service (WDS)',
      publisher: 'Statistics Canada',
      licence: STATCAN_OPEN_LICENCE,
      attribution: toStatcanAttribution(product, 'reference periods as dated in each observation'),
    });
  }
  const boc = entries.filter((e) => e.source === 'BOC');
  if (boc.length > 0) {
    out.push({
      kind: 'boc_valet',
      rows: boc.length,
      url: BOC_VALET_DEFAULT_URL,
      upstream: true,
      title: 'Valet API',
      publisher: 'Bank of Canada',
      licence: BOC_TERMS,
      attribution: BOC_ATTRIBUTION,
    });
  }
  return out;
}
