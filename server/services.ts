// The services the server can run, by name, with their default ports (shared/contracts/common.md).
import type { ServiceDefinition } from './core/app.ts';
import { facilities } from './facilities/routes.ts';

export interface ServerService {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  definition: ServiceDefinition<any>;
  defaultPort: number;
  portEnv: string;
}

export const SERVICES: Record<string, ServerService> = {
  facilities: { definition: facilities, defaultPort: 8081, portEnv: 'PORT_FACILITIES' },
};
