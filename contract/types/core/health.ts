// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /healthz, and the tree's healthz.json (the answer while every check is ok). Still HTTP 200 while the service can answer anything: `degraded` names what is wrong in `checks`.
 */
export interface Health {
  /**
   * `degraded` when any check is: the service still answers what it can (a load balancer keeps it).
   */
  status: "ok" | "degraded";
  service: string;
  data_version: string;
  demo: boolean;
  /**
   * `build` (the build served; degraded while the tree at the service's folder is gone, unreadable, half-published or refused, naming why, as the last loaded build goes on serving); carriers: `account_store` (keys and allowances; degraded while unreachable); economy: `upstream_pulls` (degraded while the last pull of some series failed within the hour, naming them and why).
   */
  checks: {
    name: string;
    status: "ok" | "degraded";
    detail: string;
  }[];
}
