// The presenters build what the /v2 endpoints answer, the response schemas
// (src/http/routes/v2/response-schemas.ts) describe it, and the console's
// types are inferred from those schemas. This holds the first two together
// at compile time: each presenter's answer, as JSON writes it (a Date as its
// ISO string), has the type its schema infers, field for field, no more and
// no less. `npx tsc --noEmit` checks it; the run below only says so.
// (The presenters cannot name the schemas' types themselves: platform/ is a
// layer below http/, test/unit/layers.test.ts, and they return Dates.)
// Every presenter is listed: a new one belongs here with its schema.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type * as schemas from '../../src/http/routes/v2/response-schemas.js';
import type { presentOrganization, presentUser } from '../../src/platform/accounts.js';
import type { presentChannelKey, presentNewChannelKey } from '../../src/platform/channel-keys.js';
import type { presentChannel } from '../../src/platform/channels.js';
import type { presentDevice } from '../../src/platform/devices.js';
import type { presentGateway } from '../../src/platform/gateways.js';
import type { presentInferenceKey } from '../../src/platform/inference-keys.js';
import type { presentLandmark } from '../../src/platform/landmarks.js';
import type { presentModel, presentVersion } from '../../src/platform/models.js';
import type { presentProject } from '../../src/platform/projects.js';
import type { presentRule } from '../../src/platform/rules/rule-service.js';
import type { presentSchema } from '../../src/platform/schemas.js';

/** A value as JSON.stringify writes it and JSON.parse reads it back: Dates become strings. */
type Json<T> = T extends Date ? string : T extends object ? { [K in keyof T]: Json<T[K]> } : T;
/** Each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Answers<F extends (...args: never[]) => unknown, S extends z.ZodType> = Same<Json<ReturnType<F>>, z.infer<S>>;

const presenters = {
  organization: true satisfies Answers<typeof presentOrganization, typeof schemas.organizationSchema>,
  user: true satisfies Answers<typeof presentUser, typeof schemas.userSchema>,
  channel: true satisfies Answers<typeof presentChannel, typeof schemas.channelSchema>,
  channelKey: true satisfies Answers<typeof presentChannelKey, typeof schemas.channelKeySchema>,
  newChannelKey: true satisfies Answers<typeof presentNewChannelKey, typeof schemas.newChannelKeySchema>,
  payloadSchema: true satisfies Answers<typeof presentSchema, typeof schemas.payloadSchemaSchema>,
  project: true satisfies Answers<typeof presentProject, typeof schemas.projectSchema>,
  gateway: true satisfies Answers<typeof presentGateway, typeof schemas.gatewaySchema>,
  device: true satisfies Answers<typeof presentDevice, typeof schemas.deviceSchema>,
  landmark: true satisfies Answers<typeof presentLandmark, typeof schemas.landmarkSchema>,
  rule: true satisfies Answers<typeof presentRule, typeof schemas.ruleSchema>,
  inferenceKey: true satisfies Answers<typeof presentInferenceKey, typeof schemas.inferenceKeySchema>,
  model: true satisfies Answers<typeof presentModel, typeof schemas.modelSchema>,
  modelVersion: true satisfies Answers<typeof presentVersion, typeof schemas.modelVersionSchema>,
};

describe('presenters and response schemas', () => {
  it('agree in type (checked by tsc)', () => {
    expect(Object.values(presenters).every(Boolean)).toBe(true);
  });
});
