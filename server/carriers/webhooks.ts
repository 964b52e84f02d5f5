// Watchlist webhooks: which URLs may receive them, and one signed POST. A URL must be https and resolve only
// to public addresses (loopback, private, link-local, shared, metadata and other special ranges refused)
// unless WEBHOOK_ALLOW_PRIVATE=1, checked when a list is saved and again at each delivery; the POST goes to
// the address that was checked (no second lookup a DNS answer could change), follows no redirect, and gives
// up after 10 s. Signed as Standard Webhooks says (https://www.standardwebhooks.com/), with its library.
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type Env, readSetting } from '../../contract/core/settings-registry.ts';
import { flagSetting } from '../../contract/core/settings.ts';

/** WEBHOOK_ALLOW_PRIVATE: `1` or `true` allows http and private addresses; unset, `0` or `false` does not. */
export function allowPrivateSetting(env: Env): boolean {
  const raw = readSetting(env, 'WEBHOOK_ALLOW_PRIVATE');
  if (raw === '1') return true;
  if (raw === '0') return false;
  return flagSetting('WEBHOOK_ALLOW_PRIVATE', raw);
}

/** A receiver that has not answered within this long has failed the attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

// Two lists: one BlockList holding ::ffff:0:0/96 would match every IPv4 address too.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT); 100.100.100.200 is a cloud metadata address
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with 169.254.169.254, the usual metadata address
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  blocked4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96], // IPv4-mapped: checked again as IPv4 below
  ['64:ff9b::', 96], // NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, with fd00:ec2::254, a metadata address
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked6.addSubnet(net, prefix, 'ipv6');

/** Whether `address` is one a webhook may not reach without WEBHOOK_ALLOW_PRIVATE. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked4.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked4.check(mapped[1]!, 'ipv4');
  return blocked6.check(address, 'ipv6');
}

/** A webhook URL refused, and why (the 400's message, or the delivery's recorded error). */
export class WebhookRefused extends Error {}

export interface CheckedTarget {
  url: URL;
  /** The address the POST goes to: the first the name resolved to, all of them checked. */
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (tests give their own). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** The URL, checked: https (or http with `allowPrivate`), no credentials, every address it resolves to public. */
export async function checkWebhookUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookRefused('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new WebhookRefused(
      allowPrivate ? 'must be an https or http URL' : 'must be an https URL (http only with WEBHOOK_ALLOW_PRIVATE=1)',
    );
  if (url.username || url.password) throw new WebhookRefused('must not hold a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  } catch (err) {
    throw new WebhookRefused(`its host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (addresses.length === 0) throw new WebhookRefused(`its host ${host} does not resolve`);
  const inside = addresses.find((a) => isPrivateAddress(a.address));
  if (inside && !allowPrivate)
    throw new WebhookRefused(
      `points inside the network (${host} is ${inside.address}): loopback, private, link-local and metadata addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1`,
    );
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export interface Attempt {
  /** The receiver's status, or undefined for a connection error or time-out. */
  status?: number;
  /** Why the attempt failed, when it did. */
  error?: string;
  ok: boolean;
}

/**
 * One signed POST of `body` to the checked target: 2xx is delivered; any other status (a redirect too: never
 * followed), a connection error or no answer within WEBHOOK_TIMEOUT_MS is a failed attempt.
 */
export function postWebhook(
  target: CheckedTarget,
  secret: string,
  message: { id: string; timestamp: Date; body: string },
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<Attempt> {
  const signature = new Webhook(secret).sign(message.id, message.timestamp, message.body);
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const req = send(
      target.url,
      {
        method: 'POST',
        // The address checked, never another lookup; TLS still verifies the URL's host name.
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all
            ? callback(null, [{ address: target.address, family: target.family }])
            : callback(null, target.address, target.family)) as never,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'shardline-webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        done({ status, ok, ...(ok ? {} : { error: `answered ${status}` }) });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, error: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    req.on('error', (err) => done({ ok: false, error: `could not be reached: ${err.message}` }));
    req.end(message.body);
  });
}
