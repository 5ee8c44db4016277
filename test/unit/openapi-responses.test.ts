// /openapi.json comes from the endpoint declarations alone: every /v2
// operation documents the body of each success it answers with a schema
// (204s have none). Built here without a server: the declarations only
// capture their dependencies, they do not touch them until a request.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { managementEndpoints } from '../../src/http/routes/v2/index.js';
import type { PlatformServices } from '../../src/platform/services.js';

type EventStreamContent = { schema?: unknown; 'x-events'?: Record<string, { description: string; data?: unknown }> };
type Operation = {
  responses: Record<
    string,
    { content?: { 'application/json'?: { schema?: unknown }; 'text/event-stream'?: EventStreamContent } }
  >;
};

function document() {
  // declarations only: handlers, which call the services, never run here
  const endpoints = managementEndpoints({} as PlatformServices, loadConfig({}));
  return {
    endpoints,
    doc: buildOpenApi(endpoints) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    },
  };
}

describe('OpenAPI response schemas', () => {
  it('documents a body schema for every 2xx of every /v2 operation but 204', () => {
    const { doc } = document();
    const missing: string[] = [];
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v2/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const successes = Object.keys(op.responses).filter((status) => /^2\d\d$/.test(status));
        if (successes.length === 0) missing.push(`${method} ${path}: no success response`);
        for (const status of successes) {
          const content = op.responses[status]!.content;
          // a stream of server-sent events documents the data of each of its events instead
          const stream = content?.['text/event-stream'];
          const streamed =
            stream?.schema &&
            Object.keys(stream['x-events'] ?? {}).length > 0 &&
            Object.values(stream['x-events']!).every((e) => e.data);
          // an image answered as its bytes (a camera's kept frame)
          const image = Object.entries(content ?? {}).some(
            ([type, c]) =>
              type.startsWith('image/') && (c as { schema?: { format?: string } }).schema?.format === 'binary',
          );
          if (status !== '204' && !content?.['application/json']?.schema && !streamed && !image)
            missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(operations).toBeGreaterThan(80);
  });

  it('names the shared resources as components, every $ref resolved', () => {
    const { doc } = document();
    for (const name of [
      'Organization',
      'User',
      'Channel',
      'ChannelApiKey',
      'Schema',
      'Project',
      'Gateway',
      'Device',
      'Landmark',
      'Rule',
      'Delivery',
      'Event',
      'InferenceKey',
      'Model',
      'ModelVersion',
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    expect(
      doc.paths['/v2/channels/{channel}']!.get!.responses['200']!.content!['application/json']!.schema,
    ).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/Channel' } },
    });
    for (const ref of JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []) {
      const name = /#\/components\/schemas\/([^"]+)/.exec(ref)?.[1];
      expect(name && doc.components.schemas[name], ref).toBeTruthy();
    }
  });

  it('documents the live event stream as server-sent events, the data of each event with its schema', () => {
    const { doc } = document();
    const op = doc.paths['/v2/events/stream']!.get!;
    const stream = op.responses['200']!.content!['text/event-stream']!;
    expect(op.responses['200']!.content!['application/json']).toBeUndefined();
    expect(stream.schema).toMatchObject({ type: 'string' });
    expect(Object.keys(stream['x-events']!)).toEqual(['ready', 'event']);
    expect(stream['x-events']!.event!.data).toEqual({ $ref: '#/components/schemas/Event' });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429']));
  });

  it('declares the success of every endpoint (its aliases share the declaration)', () => {
    const { endpoints } = document();
    for (const endpoint of endpoints) {
      const statuses = Object.entries(endpoint.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
      expect(statuses.length, endpoint.path).toBeGreaterThan(0);
    }
  });
});
