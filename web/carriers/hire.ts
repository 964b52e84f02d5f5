// "May I hire them?": what a broker checks before safety, shown first on a carrier's page. Whether the
// carrier may operate and why not, its authority per docket, the insurance on file against what it must
// file, out-of-service orders, and its registration (MCS-150 freshness, addresses, classification).
// A section whose input the build lacked says so; it never looks like an empty record.
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { type Child, facts, h, table } from '../core/dom.ts';
import { MISSING, num } from '../core/format.ts';

type Address = CarrierProfile['physical_address'] | CarrierProfile['mailing_address'];

const money = (dollars: number | null) => (dollars === null ? MISSING : `$${num(dollars)}`);
const yesNo = (v: boolean | null) => (v === null ? MISSING : v ? 'Yes' : 'No');

function address(a: Address): Child {
  if (!a) return null;
  const line = [a.street, [a.city, a.state, a.zip].filter(Boolean).join(' '), a.country].filter(Boolean);
  return line.length ? line.join(', ') : null;
}

/** "Not checked": the build had no such input, so the section cannot say anything either way. */
const notChecked = (what: string) =>
  h('p', { class: 'notice' }, `Not checked: this build had no FMCSA ${what} file, so nothing is known here.`);

/** The verdict: may it operate, with each reason, in the order the checks ran. */
export function operatingVerdict(p: CarrierProfile): HTMLElement {
  const s = p.operating_status;
  const blocks = s.reasons.filter((r) => r.code !== 'not_checked');
  const unchecked = s.reasons.filter((r) => r.code === 'not_checked');
  const [tag, text] =
    s.allowed_to_operate === null
      ? [
          h('span', { class: 'tag' }, 'Unknown'),
          ' Whether it may operate is not known: this build had no L&I or out-of-service-order files.',
        ]
      : s.allowed_to_operate
        ? [h('span', { class: 'tag ok' }, 'May operate'), ' Nothing in FMCSA’s records stops it from operating.']
        : [h('span', { class: 'tag alert' }, 'May not operate'), ' FMCSA’s records stop it from operating:'];
  return h(
    'div',
    { class: 'operating-status', role: 'group', 'aria-labelledby': 'may-operate' },
    h('p', { id: 'may-operate', class: 'verdict' }, h('strong', null, 'May it operate? '), tag, text),
    blocks.length ? h('ul', { class: 'reasons' }, ...blocks.map((r) => h('li', null, r.detail))) : null,
    unchecked.length
      ? h('ul', { class: 'reasons unchecked' }, ...unchecked.map((r) => h('li', null, `Not known: ${r.detail}.`)))
      : null,
  );
}

function authorityPart(p: CarrierProfile): Child {
  if (p.authority === null) return notChecked('L&I authority');
  if (p.authority.length === 0)
    return h(
      'p',
      null,
      'No operating authority on record (a carrier that does not haul for hire across state lines needs none).',
    );
  return table(
    'Operating authority, per docket and kind',
    ['Docket', 'Kind', 'Status', 'Since', 'Revocation', 'History'],
    p.authority.map((a) => [
      a.docket,
      a.kind,
      a.status === 'active'
        ? h('span', { class: 'tag ok' }, 'Active')
        : h('span', { class: a.status === 'revoked' ? 'tag alert' : 'tag' }, a.status),
      a.effective_date ?? MISSING,
      a.revocation
        ? [a.revocation.type ?? 'revoked', a.revocation.effective_date ? ` ${a.revocation.effective_date}` : '']
        : '',
      a.history
        .map((e) =>
          [
            e.action,
            e.date,
            e.disposition ? `→ ${e.disposition} ${e.disposition_date ?? ''}` : '',
            e.carrier_id !== p.carrier_id ? `(USDOT ${e.carrier_id})` : '',
          ]
            .filter(Boolean)
            .join(' '),
        )
        .join('; '),
    ]),
    { rowHeaders: true, className: 'data authority' },
  );
}

function insurancePart(p: CarrierProfile): Child {
  const ins = p.insurance;
  if (ins === null) return notChecked('L&I insurance');
  const r = ins.required;
  const required = r
    ? [
        r.bipd === null ? null : `${money(r.bipd)} bodily injury and property damage`,
        r.cargo ? 'cargo' : null,
        r.bond ? 'a surety bond or trust fund' : null,
      ]
        .filter(Boolean)
        .join(', ') || 'nothing'
    : 'not known (no L&I carrier record)';
  return [
    facts([
      ['Must file', required],
      [
        'Required minimum on file',
        ins.minimum_on_file === null
          ? MISSING
          : ins.minimum_on_file
            ? h('span', { class: 'tag ok' }, 'Yes')
            : h('span', { class: 'tag alert' }, 'No'),
      ],
    ]),
    ins.filings.length === 0
      ? h('p', null, 'No insurance filing on record.')
      : table(
          'Insurance filings, active first',
          ['Type', 'Status', 'Insurer', 'Policy', 'Coverage', 'Effective', 'Cancelled', 'Docket'],
          ins.filings.map((f) => [
            f.type,
            f.status,
            f.insurer ?? MISSING,
            f.policy_number ?? MISSING,
            f.coverage_to === null ? MISSING : `${money(f.coverage_from ?? 0)}–${money(f.coverage_to)}`,
            f.effective_date ?? MISSING,
            f.cancellation_date ?? '',
            f.docket,
          ]),
          { className: 'data insurance' },
        ),
  ];
}

function ordersPart(p: CarrierProfile): Child {
  const orders = p.out_of_service_orders;
  if (orders === null) return notChecked('out-of-service order');
  if (orders.length === 0) return h('p', null, 'No out-of-service order on record.');
  return table(
    'Out-of-service orders, newest first',
    ['Date', 'Reason', 'Status', 'Rescinded'],
    orders.map((o) => [
      o.date,
      o.reason ?? MISSING,
      o.status === 'active' ? h('span', { class: 'tag alert' }, 'In effect') : 'Rescinded',
      o.rescinded_date ?? '',
    ]),
    { className: 'data orders' },
  );
}

function registration(p: CarrierProfile): HTMLElement {
  return facts([
    ['Dockets', p.dockets.length ? p.dockets.join(', ') : 'none'],
    ['Operation', p.carrier_operation ? p.carrier_operation.label : MISSING],
    [
      'Classification',
      [...p.operation_classification.map((c) => c.replaceAll('_', ' ')), p.operation_other]
        .filter(Boolean)
        .join(', ') || MISSING,
    ],
    [
      'MCS-150 updated',
      p.mcs150_date === null
        ? MISSING
        : [p.mcs150_date, p.mcs150_outdated ? h('span', { class: 'tag alert' }, ' over 24 months old') : ''],
    ],
    ['MCS-150 mileage', p.mcs150_mileage ? `${num(p.mcs150_mileage.miles)} (${p.mcs150_mileage.year})` : MISSING],
    ['Added to the census', p.date_added ?? MISSING],
    ['Hazardous materials', yesNo(p.hazmat_flag)],
    ['Passengers', yesNo(p.passenger_flag)],
    ['Address of business', address(p.physical_address) ?? MISSING],
    ['Mailing address', address(p.mailing_address) ?? MISSING],
    ['Telephone', p.telephone ?? MISSING],
  ]);
}

/** The section a broker reads first. */
export function hireSection(p: CarrierProfile): HTMLElement {
  return h(
    'section',
    { class: 'hire', 'aria-labelledby': 'hire-title' },
    h('h2', { id: 'hire-title' }, 'May I hire them?'),
    operatingVerdict(p),
    h('h3', null, 'Authority'),
    authorityPart(p),
    h('h3', null, 'Insurance'),
    insurancePart(p),
    h('h3', null, 'Out-of-service orders'),
    ordersPart(p),
    h('h3', null, 'Registration'),
    registration(p),
  );
}
