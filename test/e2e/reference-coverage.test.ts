// Every path and method of the platform's OpenAPI files (copied into
// test/fixtures/reference) is served (docs/CONTRACT.md#v2-coverage): none
// answers "route not found", and errors come in the {status, message} shape.
import { readFileSync } from 'node:fs';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let sql: postgres.Sql;
let admin: Api;
let database: Platform['database'];

beforeAll(async () => {
  ({ database, server, sql, admin } = await startPlatform());
});

afterAll(async () => {
  await stopPlatform({ sql, server, database });
});

function operations(file: string): Array<[string, string]> {
  const doc = JSON.parse(readFileSync(new URL(`../fixtures/reference/${file}`, import.meta.url), 'utf8')) as {
    paths: Record<string, object>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => [m.toUpperCase(), path] as [string, string]),
  );
}

describe('coverage of the original OpenAPI files', () => {
  for (const file of ['sense-api.openapi.json', 'ingress.openapi.json']) {
    it(`serves every operation of ${file}`, async () => {
      const ops = operations(file);
      expect(ops.length).toBeGreaterThan(file.startsWith('sense') ? 50 : 4);
      const missing: string[] = [];
      for (const [method, template] of ops) {
        // Path parameters are written :name in these files; any well-formed id will do.
        const path = (template === '' ? '/' : template).replace(/:\w+/g, '01ARZ3NDEKTSV4RRFFQ69G5FAV');
        const res = await admin.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
        // A path served under other methods only answers 405 method not allowed.
        if ((res.status === 404 && res.body?.message === 'route not found') || res.status === 405)
          missing.push(`${method} ${template}`);
        if (res.status >= 400) {
          expect(res.body, `${method} ${template}`).toMatchObject({ status: res.status, message: expect.any(String) });
        }
      }
      expect(missing).toEqual([]);
    });
  }

  it('publishes one OpenAPI 3.1 document of predict, management and ingestion, with every $ref resolved', async () => {
    const doc = (await admin.get('/openapi.json')).body as {
      openapi: string;
      paths: Record<string, Record<string, { responses?: object }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/v1/models/{modelVersionId}/predict',
      '/v2/login',
      '/v2/rules/{rule}',
      '/v1/registration',
      '/v1/mobile/events/batch',
      '/v1/iot/events',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) expect(op.responses, `${method} ${path}`).toBeDefined();
    }
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = /#\/components\/schemas\/([^"]+)/.exec(ref)?.[1];
      expect(name && doc.components.schemas[name], ref).toBeTruthy();
    }
  });
});
