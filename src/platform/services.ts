// The domain services the front end calls, one per resource: each is a class
// built once by the composition root (app.ts) with its dependencies, so a
// route receives services and never a database handle.
import type { AccountService } from './accounts.js';
import type { ChannelKeyService } from './channel-keys.js';
import type { ChannelService } from './channels.js';
import type { DeviceService } from './devices.js';
import type { EventTail } from './event-tail.js';
import type { EventService } from './events.js';
import type { GatewayService } from './gateways.js';
import type { InferenceKeyService } from './inference-keys.js';
import type { KeptFrames } from './kept-frames.js';
import type { LandmarkService } from './landmarks.js';
import type { ModelService } from './models.js';
import type { ProjectService } from './projects.js';
import type { RuleDeliveryService } from './rules/deliveries.js';
import type { RuleService } from './rules/rule-service.js';
import type { SchemaService } from './schemas.js';
import type { VisionService } from './vision.js';

export interface PlatformServices {
  accounts: AccountService;
  channels: ChannelService;
  channelKeys: ChannelKeyService;
  schemas: SchemaService;
  projects: ProjectService;
  gateways: GatewayService;
  devices: DeviceService;
  /** cameras' vision profiles */
  vision: VisionService;
  /** the frames cameras keep */
  keptFrames: KeptFrames;
  landmarks: LandmarkService;
  rules: RuleService;
  ruleDeliveries: RuleDeliveryService;
  events: EventService;
  /** the live event tail of GET /v2/events/stream */
  eventTail: EventTail;
  inferenceKeys: InferenceKeyService;
  models: ModelService;
}
