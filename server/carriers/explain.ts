// The explain summary's deterministic template (docs/contracts/carriers.md, "Explain"): plain language for
// a shipper or broker, made from the profile alone. Five paragraphs: who the carrier is, whether it may
// operate (authority, insurance, out-of-service orders: what a broker checks first), how it compares with
// its peer group and when its alerts would clear, its three top risks with their figures, and what the
// figures do not say. A pure function: the same profile always gives the same text, so the summary can be
// cached and tested.
import { formatCount, formatList, round } from '../../contract/core/values.ts';
import { methodology, type Methodology } from '../../contract/carriers/methodology.ts';
import {
  type Category,
  DATA_GAP_LABELS,
  type DataGap,
  INSUFFICIENT_SEG,
  inputsOf,
  type Profile,
  REGISTRY_GAPS,
  type RegistryGap,
  smsGapsOf,
} from '../../contract/carriers/profile.ts';

/** The `generator` of a template summary; a new wording gets a new version (cached summaries say which). */
export const TEMPLATE_GENERATOR = 'template-v2';

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
  const dockets = p.dockets.length ? ` (${toList(p.dockets)})` : '';
  return [
    `${name}, USDOT ${p.carrier_id}${dockets}, is a motor carrier ${toWhere(p)}. Its census record reports ${toList(fleet)}.`,
    had,
    missing,
  ]
    .filter(Boolean)
    .join(' ');
}

const UNCHECKED: Record<RegistryGap, string> = {
  authority: 'operating authority',
  insurance: 'insurance',
  out_of_service_orders: 'out-of-service orders',
};

const money = (dollars: number) => `$${formatCount(dollars)}`;

/** What FMCSA's registry says of the carrier today: the checks that passed, in the reasons' order. */
function toCleared(p: Profile): string[] {
  const out: string[] = [];
  const orders = p.out_of_service_orders;
  if (orders) {
    const rescinded = orders.filter((o) => o.status === 'rescinded').length;
    out.push(
      `no out-of-service order is in effect${rescinded ? ` (${count(rescinded, 'earlier order')} rescinded)` : ''}`,
    );
  }
  if (p.authority) {
    const active = p.authority.filter((a) => a.status === 'active');
    out.push(
      active.length
        ? `${toList(active.map((a) => `its ${a.kind} authority under ${a.docket} is active${a.effective_date ? ` since ${a.effective_date}` : ''}`))}`
        : 'it holds no active operating authority, which its operation (not for hire across state lines) does not need',
    );
  }
  const required = p.insurance?.required;
  if (p.insurance?.minimum_on_file && required) {
    const what = [
      required.bipd === null ? null : `${money(required.bipd)} of bodily injury and property damage cover`,
      required.cargo ? 'cargo cover' : null,
      required.bond ? 'a surety bond or trust fund' : null,
    ].filter((x): x is string => x !== null);
    if (what.length) out.push(`the insurance it must file (${toList(what)}) is on file`);
  }
  return out;
}

/** May it operate? The paragraph a broker reads first, from `operating_status` and the registry fields. */
function toStatus(p: Profile): string {
  const status = p.operating_status;
  const unchecked = p.data_gaps.filter((g): g is RegistryGap => (REGISTRY_GAPS as readonly string[]).includes(g));
  const refusals = status.reasons.filter((r) => r.code !== 'not_checked').map((r) => r.detail);
  const registration =
    p.mcs150_date === null
      ? 'Its census record gives no date for its last registration update (MCS-150).'
      : `It last updated its registration (MCS-150) on ${p.mcs150_date}${p.mcs150_outdated ? ', more than 24 months before this data: FMCSA asks for an update every two years, so its census figures may be stale' : ''}.`;
  let verdict: string;
  if (status.allowed_to_operate === null)
    verdict =
      `Whether it may operate is not known here: FMCSA's licensing and insurance (L&I) and out-of-service-order data were not available to this build. ` +
      'Check its authority and insurance with FMCSA before hiring it.';
  else if (status.allowed_to_operate === false)
    verdict = `By FMCSA's records as of ${p.data_as_of}, it may not operate: ${toList(refusals)}.`;
  else {
    const cleared = toCleared(p);
    verdict = `By FMCSA's records as of ${p.data_as_of}, nothing stops it from operating${cleared.length ? `: ${toList(cleared)}` : ''}.`;
  }
  const notChecked =
    status.allowed_to_operate !== null && unchecked.length
      ? ` Its ${toList(unchecked.map((g) => UNCHECKED[g]))} ${unchecked.length === 1 && unchecked[0] !== 'out_of_service_orders' ? 'was' : 'were'} not checked: FMCSA's file${unchecked.length === 1 ? ' was' : 's were'} not available to this build.`
      : '';
  return `${verdict}${notChecked} ${registration}`;
}

/** "If nothing new happens, its X alert clears on D": from each alert's step-down, or that it does not within it. */
function toClearing(alerts: readonly Category[]): string {
  const parts = alerts.map((c) => {
    const step = c.step_down?.find((s) => !s.alert);
    if (!step) return `its ${c.label} alert does not clear within the next 24 months`;
    const then =
      step.percentile === null ? 'when too little data is left to rank it' : `at percentile ${step.percentile}`;
    return `its ${c.label} alert clears on ${step.date} (${then})`;
  });
  return parts.length ? ` If nothing new happens, ${toList(parts)}.` : '';
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
  const clearing = toClearing(alerts);
  return (
    `Its peer group is "${p.peer_group.label}" (${count(p.peer_group.size, 'carrier')}). ` +
    `It is ranked in ${ranked.length} of the ${p.categories.length} safety categories (BASICs), each against the carriers with a similar amount of ` +
    `activity in that category; a percentile says what share of those carriers have a better measure, so higher is worse. ${standing}${clearing}${gapNote}`
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

/** The template summary of a profile: five paragraphs separated by blank lines. */
export function toExplanation(profile: Profile, m: Methodology = methodology()): string {
  return [toWho(profile), toStatus(profile), toPeers(profile, m), toRisks(profile), toCaveats(profile, m)].join('\n\n');
}
