// The services the server can run, by name, with their default ports (docs/contracts/common.md).
import type { ServiceDefinition } from './core/service.ts';
import { ConfigError, wholeNumberSetting } from '../contract/core/settings.ts';
import { parseWatchlistLimits, type WatchlistLimits } from '../contract/carriers/watchlists.ts';
import { allowPrivateSetting } from './carriers/webhooks.ts';
import type { Plan } from './core/store.ts';
import { openAccounts } from './carriers/accounts.ts';
import { toLlmConfig } from './carriers/llm.ts';
import { createCarriersService } from './carriers/routes.ts';
import { createEconomyService } from './economy/routes.ts';
import { createFacilitiesService } from './facilities/routes.ts';
import {
  defaultNumber,
  type Env,
  numberSetting,
  readSetting,
  type SettingName,
  settingOrDefault,
} from '../contract/core/settings-registry.ts';

export interface ServiceEnv {
  /** STATE_DIR: runtime state (keys, counters, caches), never inside the build folder. */
  stateDir: string;
  env: NodeJS.ProcessEnv;
}

export interface ServerService {
  create(env: ServiceEnv): ServiceDefinition<unknown>;
  defaultPort: number;
  portEnv: SettingName;
}

/** FREE_PROFILE_LOOKUPS: a whole number ≥ 0 (default 25, the contract's). */
export function toFreeLookups(raw: string | undefined): number {
  return wholeNumberSetting(
    'FREE_PROFILE_LOOKUPS',
    raw,
    defaultNumber('FREE_PROFILE_LOOKUPS'),
    0,
    'a whole number ≥ 0',
  );
}

/** SIGN_IN_FAILURES_PER_MINUTE (default 30, the contract's) and TRUSTED_PROXIES (default 0: the socket's address). */
export function toSignInLimit(env: NodeJS.ProcessEnv): { failuresPerMinute: number; trustedProxies: number } {
  return {
    failuresPerMinute: numberSetting(env, 'SIGN_IN_FAILURES_PER_MINUTE', 1, 'a whole number ≥ 1'),
    trustedProxies: numberSetting(env, 'TRUSTED_PROXIES', 0, 'a whole number ≥ 0'),
  };
}

/** WATCHLIST_FREE_MAX, WATCHLIST_PREMIUM_MAX and WEBHOOK_ALLOW_PRIVATE, checked; a bad value stops the start. */
export function toWatchlistSettings(env: Env): { limits: Record<Plan, WatchlistLimits>; allowPrivate: boolean } {
  const limits = (name: 'WATCHLIST_FREE_MAX' | 'WATCHLIST_PREMIUM_MAX') => {
    try {
      return parseWatchlistLimits(name, settingOrDefault(env, name));
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  };
  return {
    limits: { free: limits('WATCHLIST_FREE_MAX'), premium: limits('WATCHLIST_PREMIUM_MAX') },
    allowPrivate: allowPrivateSetting(env),
  };
}

/** MCP_ALLOWED_HOSTS: the hosts the MCP endpoints (economy's /mcp, carriers' /api/mcp, facilities' /api/v1/mcp) answer; undefined: the local ones. */
export function toAllowedHosts(raw: string | undefined): string[] | undefined {
  return raw
    ? raw
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean)
    : undefined;
}

export const SERVICES: Record<string, ServerService> = {
  facilities: {
    create: ({ env }) =>
      createFacilitiesService({ allowedHosts: toAllowedHosts(readSetting(env, 'MCP_ALLOWED_HOSTS')) }),
    defaultPort: defaultNumber('PORT_FACILITIES'),
    portEnv: 'PORT_FACILITIES',
  },
  carriers: {
    create: ({ stateDir, env }) => {
      // SQLite under STATE_DIR, or PostgreSQL with DATABASE_URL (carriers/accounts.ts).
      const accounts = openAccounts(stateDir, env);
      return createCarriersService({
        accounts: accounts.store,
        ...(accounts.health && { storeHealth: accounts.health }),
        freeLookups: toFreeLookups(readSetting(env, 'FREE_PROFILE_LOOKUPS')),
        llm: toLlmConfig(env),
        allowedHosts: toAllowedHosts(readSetting(env, 'MCP_ALLOWED_HOSTS')),
        signIn: toSignInLimit(env),
        watchlists: toWatchlistSettings(env),
      });
    },
    defaultPort: defaultNumber('PORT_CARRIERS'),
    portEnv: 'PORT_CARRIERS',
  },
  economy: {
    create: ({ stateDir, env }) =>
      createEconomyService({
        stateDir,
        env,
        allowedHosts: toAllowedHosts(readSetting(env, 'MCP_ALLOWED_HOSTS')),
      }),
    defaultPort: defaultNumber('PORT_ECONOMY'),
    portEnv: 'PORT_ECONOMY',
  },
};
