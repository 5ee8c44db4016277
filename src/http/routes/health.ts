// Liveness, readiness, Prometheus metrics and the version root.
import { z } from 'zod';
import { ApiError } from '../errors.js';
import type { JpegDecoder } from '../../inference/pipeline/decode-image.js';
import type { Registry } from '../../observability/metrics.js';
import type { ReadinessCheck } from '../../platform/readiness.js';
import { defineEndpoint, respond, type Endpoint } from '../api.js';
import { SERVER_NAME, SERVER_VERSION } from '../../lib/server-version.js';

const versionSchema = z.object({ name: z.string(), version: z.string() });

export function healthEndpoints(deps: {
  readiness: ReadinessCheck;
  registry: Registry;
  jpegDecoder: JpegDecoder;
}): Endpoint[] {
  const version = (path: string, operationId: string, summary: string, description: string) =>
    defineEndpoint({
      method: 'get',
      path,
      tag: 'health',
      summary,
      description,
      operationId,
      auth: 'none',
      responses: { 200: { description: 'the server and API version', schema: versionSchema } },
      handler: () => respond.bare({ name: SERVER_NAME, version: SERVER_VERSION }),
    });
  return [
    // The platform's API root answered its version (docs/CONTRACT.md#v2-coverage).
    version(
      '/',
      'rootVersion',
      'the API version (the original root)',
      "Answers the name and version of the server (package.json's), as the root of the original API did; kept for its clients.",
    ),
    version(
      '/v2',
      'version',
      'the API version',
      "Answers the name of the server and its version (package.json's), as /openapi.json's info.version. Needs no authentication.",
    ),
    defineEndpoint({
      method: 'get',
      path: '/v2/health/live',
      tag: 'health',
      summary: 'liveness: the process answers',
      description:
        'Liveness probe: answers 200 as long as the process serves requests, whatever the state of the database or the models.',
      auth: 'none',
      responses: { 200: { description: 'alive', schema: z.object({ status: z.literal('ok') }) } },
      handler: () => respond.bare({ status: 'ok' }),
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/health/ready',
      tag: 'health',
      summary: 'readiness: the database answers, the model versions found at start have loaded and one is Active',
      description:
        'Readiness probe: answers 200 once the database answers, the model versions found at start have loaded and one is Active, and, in MQTT broker mode (MQTT_BROKER_URL), the broker connection is up; otherwise 503 with what is missing.',
      auth: 'none',
      responses: {
        200: {
          description:
            'ready, and which decoder JPEGs get here (libturbojpeg, or sharp for all: slower, and its pixels differ a little)',
          schema: z.object({
            status: z.literal('ready'),
            database: z.literal('ok'),
            activeModelVersion: z.literal(true),
            jpegDecoder: z.enum(['libturbojpeg', 'sharp']),
            mqttBroker: z.literal('connected').optional().describe('in MQTT broker mode only'),
          }),
        },
        503: { description: 'not ready: what is missing (Retry-After)' },
      },
      async handler() {
        const { database, models, broker } = await deps.readiness.check();
        if (database && models === 'ok' && broker !== false)
          return respond.bare({
            status: 'ready',
            database: 'ok',
            activeModelVersion: true,
            jpegDecoder: deps.jpegDecoder,
            ...(broker ? { mqttBroker: 'connected' } : {}),
          });
        const modelProblem = {
          ok: '',
          loading: 'model versions are still loading',
          'none-active': 'no model version is Active',
        }[models];
        const problems = [
          database ? '' : 'database does not answer',
          modelProblem,
          broker === false ? 'not connected to the MQTT broker (MQTT_BROKER_URL)' : '',
        ];
        throw new ApiError(503, 'not ready', problems.filter(Boolean).join('; '), { 'Retry-After': '1' });
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/metrics',
      tag: 'health',
      summary: "Prometheus metrics; they name every organization's model versions, so they are not public",
      description:
        "Prometheus metrics of the server, in the text exposition format. They name every organization's model versions, so they need METRICS_TOKEN, or a client on the server's own host when no token is set.",
      operationId: 'metrics',
      auth: 'metrics',
      responses: {
        200: { description: 'Prometheus text exposition format', text: 'text/plain; version=0.0.4; charset=utf-8' },
      },
      handler: async () =>
        respond.encoded({ body: deps.registry.render(), contentType: 'text/plain; version=0.0.4; charset=utf-8' }),
    }),
  ];
}
