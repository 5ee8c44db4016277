// Every declared endpoint of the management API, in one list: the router
// registers them and /openapi.json documents them.
import type { Config } from '../../../config.js';
import type { PlatformServices } from '../../../platform/services.js';
import type { Endpoint } from '../../api.js';
import { accountEndpoints } from './accounts.js';
import { channelsEndpoints } from './channels.js';
import { deliveriesEndpoints } from './deliveries.js';
import { devicesEndpoints } from './devices.js';
import { eventsEndpoints } from './events.js';
import { gatewaysEndpoints } from './gateways.js';
import { inferenceKeysEndpoints } from './inference-keys.js';
import { landmarksEndpoints } from './landmarks.js';
import { modelsEndpoints } from './models.js';
import { projectsEndpoints } from './projects.js';
import { rulesEndpoints } from './rules.js';
import { schemasEndpoints } from './schemas.js';

export function managementEndpoints(services: PlatformServices, config: Config): Endpoint[] {
  return [
    ...accountEndpoints(services.accounts),
    ...channelsEndpoints(services),
    ...schemasEndpoints(services),
    ...projectsEndpoints(services),
    ...gatewaysEndpoints(services),
    ...devicesEndpoints(services),
    ...landmarksEndpoints(services),
    ...rulesEndpoints(services),
    ...deliveriesEndpoints(services),
    ...eventsEndpoints(services, config),
    ...inferenceKeysEndpoints(services),
    ...modelsEndpoints(services, config),
  ];
}
