// The explain summary's deterministic template (docs/contracts/carriers.md, "Explain"): plain language for
// a shipper or broker, made from the profile alone. Four paragraphs: who the carrier is, how it compares
// with its peer group, its three top risks with their figures, and what the figures do not say. A pure
// function: the same profile always gives the same text, so the summary can be cached and tested.
import { formatCount, formatList, round } from '../../contract/core/values.ts';
import { methodology, type Methodology } from '../../contract/carriers/methodology.ts';
import {
  type Category,
  DATA_GAP_LABELS,
  type DataGap,
  INSUFFICIENT_SEG,
  inputsOf,
  type Profile,
  smsGapsOf,
} from '../../contract/carriers/profile.ts';

/** The `generator` of a template summary; a new wording gets a new version (cached summaries say which). */
export const TEMPLATE_GENERATOR = 'template-v1';

const count = (n: number, one: string, other = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : other}`;
const percent = (rate: number) => `${round(rate * 100, 1)} %`;

const toList = formatList;

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
  // A count the build had no input for is null: said to be unknown, never written as none.
  const known: string[] = [];
  const unknown: string[] = [];
  if (i.total === null) unknown.push('roadside inspections');
  else
    known.push(
      `${count(i.total, 'roadside inspection')} (${formatCount(i.with_violations ?? 0)} with violations${oos.length ? `; ${toList(oos)}` : ''})`,
    );
  if (c.total === null) unknown.push('crashes');
  else
    known.push(
      c.total === 0
        ? 'no reported crash'
        : `${count(c.total, 'reported crash', 'reported crashes')} (${formatCount(c.fatal ?? 0)} fatal, ${formatCount(c.injury ?? 0)} with injuries, ${formatCount(c.tow_away ?? 0)} with a vehicle towed away)`,
    );
  const period = `In the ${i.window_months} months to ${p.data_as_of}`;
  const had = known.length ? `${period} it had ${toList(known)}.` : '';
  const missing = unknown.length
    ? `${known.length ? 'Its' : `${period}, its`} ${toList(unknown)} are not known: ` +
      `FMCSA's ${toGapData(p.data_gaps)} data was not available to this build, so those figures are missing here, not zero.`
    : '';
  return [
    `${name}, USDOT ${p.carrier_id}, is a motor carrier ${toWhere(p)}. Its census record reports ${toList(fleet)}.`,
    had,
    missing,
  ]
    .filter(Boolean)
    .join(' ');
}

/** "SMS inspection, violation and crash": the inputs a build lacked, as the summary names them. */
function toGapData(gaps: readonly DataGap[]): string {
  return `SMS ${toList(smsGapsOf(gaps).map((g) => DATA_GAP_LABELS[g]))}`;
}

/** The categories measured from an input the build lacked: no measure, no rank, through no fault of data sufficiency. */
function gappedOf(p: Profile, m: Methodology): Category[] {
  return p.categories.filter((c) => inputsOf(c.category, m).some((g) => p.data_gaps.includes(g)));
}

function toPeers(p: Profile, m: Methodology): string {
  const ranked = p.categories.filter((c) => c.percentile !== null);
  const gapped = gappedOf(p, m);
  const gapNote = gapped.length
    ? ` ${toList(gapped.map((c) => c.label))} ${gapped.length === 1 ? 'is' : 'are'} not ranked at all: ${gapped.length === 1 ? 'it rests' : 'they rest'} on FMCSA's ${toGapData(p.data_gaps)} data, which was not available to this build.`
    : '';
  if (p.peer_group.id === INSUFFICIENT_SEG || ranked.length === 0) {
    // Shown: the categories whose percentile is given where ranked (not withheld as FMCSA's are).
    const shown = p.categories.filter((c) => c.percentile_note === undefined);
    if (gapped.length > 0 && shown.every((c) => gapped.includes(c)))
      return `It cannot be compared with peers: the data the rankings rest on (FMCSA's ${toGapData(p.data_gaps)} data) was not available to this build, so no safety category could be ranked.`;
    return (
      `It cannot be compared with peers: it has too few inspections, violations or crashes in ${p.inspections.window_months} months to be ranked in any ` +
      `category whose percentile is shown (FMCSA's data sufficiency rules), as ${count(p.peer_group.size, 'carrier')} in this data are, itself included.${gapNote}`
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
    `activity in that category; a percentile says what share of those carriers have a better measure, so higher is worse. ${standing}${gapNote}`
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
  const gapped = gappedOf(p, m);
  if (smsGapsOf(p.data_gaps).length)
    out.push(
      `FMCSA's ${toGapData(p.data_gaps)} data was not available to this build: the figures that rest on it are unknown, not zero, and the carrier's record there may be good or bad.`,
    );
  const unranked = p.categories.filter((c) => !c.sufficient_data && !gapped.includes(c));
  if (unranked.length)
    out.push(
      `${toList(unranked.map((c) => c.label))} ${unranked.length === 1 ? 'has' : 'have'} too little data in the window to be ranked (data sufficiency rules): a missing percentile is neither good nor bad news.`,
    );
  else if (gapped.length === 0) out.push('Every category has enough data to be ranked.');
  else if (gapped.length < p.categories.length) out.push('Every other category has enough data to be ranked.');
  if (!p.data_gaps.includes('crashes'))
    out.push(
      'Crash counts include every reported crash whoever was at fault; crashes FMCSA found not preventable are left out of the Crash Indicator measure.',
    );
  out.push(`Events after ${p.data_as_of}, or not yet reported to FMCSA, are not included.`);
  return out.join(' ');
}

/** The template summary of a profile: four paragraphs separated by blank lines. */
export function toExplanation(profile: Profile, m: Methodology = methodology()): string {
  return [toWho(profile), toPeers(profile, m), toRisks(profile), toCaveats(profile, m)].join('\n\n');
}
