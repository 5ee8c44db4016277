// /openapi.json passes Redocly's `recommended` lint rules with no error and
// no warning (servers, license, security on every operation, a 4XX on every
// operation...), and every operation has a description and a declared tag,
// as documentation viewers and other linters (Spectral) expect. The document
// is built from the declarations the way the server builds it (app.ts).
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Endpoint } from '../../src/http/api.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { healthEndpoints } from '../../src/http/routes/health.js';
import { ingestEndpoints } from '../../src/http/routes/ingest.js';
import { predictEndpoint } from '../../src/http/routes/predict.js';
import { managementEndpoints } from '../../src/http/routes/v2/index.js';

// Declarations only: their dependencies are used by handlers, never here.
const declared: Endpoint[] = [
  predictEndpoint({} as never),
  ...managementEndpoints({} as never, loadConfig({})),
  ...ingestEndpoints({ maxBodyBytes: 4 * 1024 * 1024 } as never),
  ...healthEndpoints({} as never),
];

type Operation = {
  tags?: string[];
  description?: string;
  summary?: string;
  parameters?: Array<{ name: string; description?: string; schema: { description?: string } }>;
};
const doc = buildOpenApi(declared) as {
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);

describe('/openapi.json lint', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const report = problems.map(
      (p) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`,
    );
    expect(report, report.join('\n')).toEqual([]);
  }, 30_000);

  it('describes every operation, beyond its summary', () => {
    const missing = operations
      .filter(({ op }) => !op.description?.trim() || op.description === op.summary)
      .map(({ name }) => name);
    expect(missing).toEqual([]);
    expect(operations.length).toBe(declared.length);
  });

  it('tags every operation with a tag declared, with its description, at the top level', () => {
    const declaredTags = new Map(doc.tags.map((t) => [t.name, t.description]));
    expect([...declaredTags].filter(([, description]) => !description?.trim())).toEqual([]);
    const untagged = operations
      .filter(({ op }) => !op.tags?.length || op.tags.some((t) => !declaredTags.has(t)))
      .map(({ name }) => name);
    expect(untagged).toEqual([]);
    // and no tag is declared that no operation uses
    expect([...declaredTags.keys()].filter((tag) => !operations.some(({ op }) => op.tags?.includes(tag)))).toEqual([]);
  });

  it('gives parameters their description on the parameter object, where /docs shows it', () => {
    const predict = doc.paths['/v1/models/{modelVersionId}/predict']!.post!;
    for (const name of ['max_detections', 'threshold', 'iou', 'top_k', 'keypoint_threshold', 'box']) {
      const parameter = predict.parameters!.find((p) => p.name === name);
      expect(parameter?.description, name).toBeTruthy();
      expect(parameter?.schema.description, name).toBeUndefined();
    }
  });
});
