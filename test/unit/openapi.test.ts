// /openapi.json is generated from the route declarations alone: predict,
// ingestion and health are declared like the management API, with their
// authentication scheme, the schemas that validate their requests and a
// schema for every answer with a body.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/http/api.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { healthEndpoints } from '../../src/http/routes/health.js';
import { ingestEndpoints } from '../../src/http/routes/ingest.js';
import { predictEndpoint } from '../../src/http/routes/predict.js';

// Declarations only: their dependencies are used by handlers, never here.
const declared: Endpoint[] = [
  predictEndpoint({} as never),
  ...ingestEndpoints({ maxBodyBytes: 4 * 1024 * 1024 } as never),
  ...healthEndpoints({} as never),
];
type Operation = {
  operationId: string;
  security?: unknown[];
  parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
const doc = buildOpenApi(declared) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
const op = (path: string, method: string) => doc.paths[path]![method]!;

describe('/openapi.json from the declarations', () => {
  it("names the server's version as package.json does, not one written in the code", () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    expect((doc as unknown as { info: { version: string } }).info.version).toBe(version);
  });

  it('has exactly the declared operations, predict, ingestion and health among them', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      declared
        .map((e) => `${(e.method === 'del' ? 'delete' : e.method).toUpperCase()} ${e.path.replace(/:(\w+)/g, '{$1}')}`)
        .sort(),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /v1/models/{modelVersionId}/predict',
        'POST /v1/mobile/events/batch',
        'POST /v1/registration',
        'GET /v2/health/ready',
        'GET /metrics',
      ]),
    );
  });

  it('gives every answer with a body a schema, in each media type it is sent as', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status === '204') {
            expect(response.content, `${method} ${path} ${status}`).toBeUndefined();
            continue;
          }
          const content = Object.entries(response.content ?? {});
          expect(content.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const [type, media] of content) expect(media.schema, `${method} ${path} ${status} ${type}`).toBeTruthy();
        }
      }
    }
    // Answers in protobuf too are documented as such.
    expect(Object.keys(op('/v1/registration', 'post').responses['200']!.content!)).toEqual([
      'application/json',
      'application/protobuf',
    ]);
    expect(
      op('/v1/models/{modelVersionId}/predict', 'post').responses['200']!.content!['application/json']!.schema,
    ).toEqual({ $ref: '#/components/schemas/Detections' });
    expect(doc.components.schemas.Detections).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'array' },
    });
  });

  it('documents requests with the schemas that validate them', () => {
    const predict = op('/v1/models/{modelVersionId}/predict', 'post');
    expect(predict.security).toEqual([{ inferenceKey: [] }]);
    expect(predict.parameters.find((p) => p.name === 'threshold')?.schema).toMatchObject({
      type: 'number',
      minimum: 0,
      maximum: 1,
    });
    expect(Object.keys(predict.requestBody!.content)).toEqual(['multipart/form-data', 'application/json']);
    // The mobile event's JSON schema is the codec's own: a location needs its coordinates.
    const event = op('/v1/mobile/events', 'post');
    expect(event.security).toEqual([{ deviceToken: [] }]);
    const json = event.requestBody!.content['application/json']!.schema as {
      properties: { locations: { items: { required: string[] }; maxItems: number } };
    };
    expect(json.properties.locations.items.required).toEqual(['latitude', 'longitude']);
    expect(Object.keys(event.requestBody!.content)).toEqual(['application/json', 'application/protobuf']);
    expect(event.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['header:Idempotency-Key']);
    expect(op('/v1/mobile/ibeacons', 'get').parameters[0]).toMatchObject({
      name: 'count',
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 1000 },
    });
    expect(op('/metrics', 'get').security).toEqual([{ metricsToken: [] }, {}]);
  });
});
