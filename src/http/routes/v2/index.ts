// Every declared endpoint of the management API, in one list: the router
// registers them and /openapi.json documents them.
import type { Sql } from 'postgres';
import type { Config } from '../../../config.js';
import type { ModelFiles } from '../../../inference/model-store.js';
import type { InferenceService } from '../../../inference/service.js';
import type { AccountService } from '../../../platform/accounts.js';
import type { EventTail } from '../../../platform/event-tail.js';
import type { InferenceKeyCache } from '../../../platform/inference-keys.js';
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

export interface PlatformDeps {
  sql: Sql;
  config: Config;
  accounts: AccountService;
  inference: InferenceService;
  inferenceKeys: InferenceKeyCache;
  modelFiles: ModelFiles;
  /** the live event tail of GET /v2/events/stream */
  eventTail: EventTail;
}

export function managementEndpoints(deps: PlatformDeps): Endpoint[] {
  return [
    ...accountEndpoints(deps.accounts),
    ...channelsEndpoints(deps),
    ...schemasEndpoints(deps),
    ...projectsEndpoints(deps),
    ...gatewaysEndpoints(deps),
    ...devicesEndpoints(deps),
    ...landmarksEndpoints(deps),
    ...rulesEndpoints(deps),
    ...deliveriesEndpoints(deps),
    ...eventsEndpoints(deps),
    ...inferenceKeysEndpoints(deps),
    ...modelsEndpoints(deps),
  ];
}
