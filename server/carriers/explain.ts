// The explain summary's deterministic template (shared/contracts/carriers.md, "Explain"): plain language for
// a shipper or broker, made from the profile alone. Four paragraphs: who the carrier is, how it compares
// with its peer group, its three top risks with their figures, and what the figures do not say. A pure
// function: the same profile always gives the same text, so the summary can be cached and tested.
import { formatCount, round } from '../../contract/core/values.ts';
import { methodology, type Methodology } from '../../contract/carriers/methodology.ts';
import { INSUFFICIENT_SEG, type Category, type Profile } from '../../contract/carriers/profile.ts';

/** The `generator` of a template summary; a new wording gets a new version (cached summaries say which). */
export const TEMPLATE_GENERATOR = 'template-v1';

const count = (n: number, one: string, other = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : other}`;
const percent = (rate: number) => `${round(rate * 100, 1)} %`;

/** `a`, `a and b`, `a, b and c` (or `or`). */
function toList(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

function toWhere(p: Profile): string {
  const place = [p.city, p.state].filter((s): s is string => s !== null).join(', ');
  return place ? `based in ${place}` : 'with no address of business on its census record';
}

function toWho(p: Profile): string {
  const name = p.dba_name ? `${p.legal_name} (doing business as ${p.dba_name})` : p.legal_name;
  const fleet = [
    p.power_units === null ? 'no power-unit count' : count(p.power_units, 'power unit'),
    p.drivers === null ? 'no driver count' : count(p.drivers, 'driver'),
    ...(p.mileage ? [`${formatCount(p.mileage.miles)} miles driven in ${p.mileage.year}`] : []),
  ];
  const i = p.inspections;
  const c = p.crashes;
  const oos = [
    p.rates.vehicle_oos_rate === null
      ? null
      : `vehicles put out of service in ${percent(p.rates.vehicle_oos_rate)} of vehicle inspections`,
    p.rates.driver_oos_rate === null ? null : `drivers in ${percent(p.rates.driver_oos_rate)} of driver inspections`,
  ].filter((s): s is string => s !== null);
  const inspections = `${count(i.total, 'roadside inspection')} (${formatCount(i.with_violations)} with violations${oos.length ? `; ${toList(oos)}` : ''})`;
  const crashes =
    c.total === 0
      ? 'no reported crash'
      : `${count(c.total, 'reported crash', 'reported crashes')} (${formatCount(c.fatal)} fatal, ${formatCount(c.injury)} with injuries, ${formatCount(c.tow_away)} with a vehicle towed away)`;
  return (
    `${name}, USDOT ${p.carrier_id}, is a motor carrier ${toWhere(p)}. Its census record reports ${toList(fleet)}. ` +
    `In the ${i.window_months} months to ${p.data_as_of} it had ${inspections} and ${crashes}.`
  );
}

function toPeers(p: Profile): string {
  const ranked = p.categories.filter((c) => c.percentile !== null);
  if (p.peer_group.id === INSUFFICIENT_SEG || ranked.length === 0) {
    return (
      `It cannot be compared with peers: it has too few inspections, violations or crashes in ${p.inspections.window_months} months to be ranked in any ` +
      `category whose percentile is shown (FMCSA's data sufficiency rules), as ${count(p.peer_group.size, 'carrier')} in this data are, itself included.`
    );
  }
  const describe = (c: Category) => `${c.label} (percentile ${c.percentile}, threshold ${c.threshold})`;
  const alerts = ranked.filter((c) => c.alert);
  const below = ranked.filter((c) => !c.alert);
  const standing = alerts.length
    ? `It is at or above FMCSA's intervention threshold in ${toList(alerts.map(describe))}` +
      (below.length ? `, and below it in ${toList(below.map(describe))}.` : '.')
    : `It is below FMCSA's intervention threshold in every ranked category: ${toList(below.map(describe))}.`;
  return (
    `Its peer group is "${p.peer_group.label}" (${count(p.peer_group.size, 'carrier')}). ` +
    `It is ranked in ${ranked.length} of the ${p.categories.length} safety categories (BASICs), each against the carriers with a similar amount of ` +
    `activity in that category; a percentile says what share of those carriers have a better measure, so higher is worse. ${standing}`
  );
}

function toRisks(p: Profile): string {
  const lines = p.top_risks.map((r, i) => {
    const c = p.categories.find((x) => x.category === r.category);
    const measure =
      c && c.measure !== null && !r.reason.includes('(measure ') ? `; measure ${round(c.measure, 2)}` : '';
    return `${i + 1}. ${r.reason}${measure}.`;
  });
  return [`Its three top risks:`, ...lines].join('\n');
}

function toCaveats(p: Profile, m: Methodology): string {
  const out = [
    `What these figures do not say: the percentiles are recomputed from FMCSA's public data with the published SMS methodology (${p.methodology.version}); ` +
      `they are not FMCSA's published values, and neither they nor the counts are a safety rating.`,
  ];
  const withheld = p.categories.filter((c) => c.percentile_note !== undefined);
  const restrictedShown = p.categories.filter(
    (c) => !m.basics[c.category].public_percentile && c.percentile_note === undefined,
  );
  if (withheld.length)
    out.push(
      `FMCSA publishes no ${toList(
        withheld.map((c) => c.label),
        'or',
      )} percentiles, so none are given here.`,
    );
  if (restrictedShown.length)
    out.push(
      `The ${toList(restrictedShown.map((c) => c.label))} figures are shown although FMCSA publishes no percentiles for them.`,
    );
  const unranked = p.categories.filter((c) => !c.sufficient_data);
  out.push(
    unranked.length
      ? `${toList(unranked.map((c) => c.label))} ${unranked.length === 1 ? 'has' : 'have'} too little data in the window to be ranked (data sufficiency rules): a missing percentile is neither good nor bad news.`
      : 'Every category has enough data to be ranked.',
  );
  out.push(
    `Crash counts include every reported crash whoever was at fault; crashes FMCSA found not preventable are left out of the Crash Indicator measure. ` +
      `Events after ${p.data_as_of}, or not yet reported to FMCSA, are not included.`,
  );
  return out.join(' ');
}

/** The template summary of a profile: four paragraphs separated by blank lines. */
export function toExplanation(profile: Profile, m: Methodology = methodology()): string {
  return [toWho(profile), toPeers(profile), toRisks(profile), toCaveats(profile, m)].join('\n\n');
}
