// The walkthrough (docs/WALKTHROUGH.md, linked from README's quick tour), run
// as a newcomer types it: the shell blocks of "Predict", "Management API in
// five minutes", "Device ingestion" and "Cameras", in order, in one bash session in the
// checkout, against a server started as README says (credentials printed at
// first start). Only what a reader fills in is filled in: the server's
// address (the test server's port), the admin password and the inference key
// it printed. A walkthrough that no longer works as written fails here, and
// so does a JSON sample of README.md or the walkthrough that is neither the
// demo model's real answer for samples/scene.jpg nor said to be abridged.
//
// Needs curl and jq, as the walkthrough does. Without them the test is
// skipped with a warning, except where WALKTHROUGH_TESTS_REQUIRED=1
// (.ci/run sets it): there a missing tool fails the run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, ROOT, startServer, waitFor, type TestServer } from '../helpers/server.js';

/** Where the walkthrough lives, relative to the checkout. */
const WALKTHROUGH = 'docs/WALKTHROUGH.md';

const hasTools = ['curl', 'jq'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
if (!hasTools && process.env.WALKTHROUGH_TESTS_REQUIRED === '1') {
  throw new Error(
    'curl and jq are needed for the walkthrough (docs/WALKTHROUGH.md), and WALKTHROUGH_TESTS_REQUIRED=1: apt-get install curl jq',
  );
}
if (!hasTools) console.warn('walkthrough test skipped: it needs curl and jq (apt-get install curl jq)');

/** The ```sh blocks of the section under `heading`, up to the next heading (a `# comment` inside a block is not one). */
function shellBlocks(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${WALKTHROUGH} has no "${heading}" section`);
  const blocks: string[] = [];
  let block: string[] | undefined;
  let fenced = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('```')) {
      if (!fenced && line === '```sh') block = [];
      else if (fenced && block) {
        blocks.push(`${block.join('\n')}\n`);
        block = undefined;
      }
      fenced = !fenced;
      continue;
    }
    if (!fenced && /^#{1,6} /.test(line)) break;
    block?.push(line);
  }
  return blocks;
}

/** Each ```json block of a Markdown text, with the paragraph (or list item) that introduces it. */
function jsonSamples(text: string): Array<{ intro: string; json: string }> {
  const lines = text.split('\n');
  const samples: Array<{ intro: string; json: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```json$/.test(lines[i]!)) continue;
    const intro: string[] = [];
    let j = i - 1;
    while (j >= 0 && lines[j]!.trim() === '') j--;
    for (; j >= 0 && lines[j]!.trim() !== ''; j--) intro.unshift(lines[j]!.trim());
    const end = lines.findIndex((line, j) => j > i && /^\s*```$/.test(line));
    samples.push({ intro: intro.join(' '), json: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return samples;
}

/** Replaces `from` (it must occur) with `to`: a walkthrough that drops a placeholder fails here, not silently. */
function fillIn(script: string, from: string | RegExp, to: string): string {
  const filled = script.replace(from, to);
  if (filled === script) throw new Error(`${WALKTHROUGH} no longer has ${from}`);
  return filled;
}

let server: TestServer;

beforeAll(async () => {
  if (!hasTools) return;
  const env: Record<string, string> = { RESPONSE_VALIDATION: 'true' };
  server = await startServer({ env });
  await waitFor(async () => (await fetch(`${server.url}/v2/health/ready`)).ok || undefined, 120_000, 'ready');
}, 180_000);

afterAll(async () => {
  if (!server) return;
  await server.stop();
  await removeDir(server.dataDir);
});

describe.skipIf(!hasTools)('the walkthrough of docs/WALKTHROUGH.md', () => {
  it('runs command for command and does what its comments say', async () => {
    const printed = server.stdout();
    const password = /admin login:\s+admin@example\.com \/ (\S+)/.exec(printed)?.[1];
    const key = /inference API key:\s+(sk_\S+)/.exec(printed)?.[1];
    expect(password, printed).toBeDefined();
    expect(key, printed).toBeDefined();

    const walkthrough = readFileSync(join(ROOT, WALKTHROUGH), 'utf8');
    const sections = ['## Predict', '## Management API in five minutes', '## Device ingestion', '## Cameras'].map((h) =>
      shellBlocks(walkthrough, h),
    );
    expect(sections.map((s) => s.length)).toEqual([2, 1, 1, 1]);
    let script = sections
      .flat()
      .map((block, i) => `echo; echo "=== block ${i} ==="\n${block}`)
      .join('\n');
    script = fillIn(script, /^KEY=sk_\.\.\..*$/m, `KEY='${key}'`);
    script = fillIn(script, /^PASSWORD='the admin password printed at first start'$/m, `PASSWORD='${password}'`);
    script = fillIn(script, /http:\/\/localhost:8080/g, server.url);
    // The live tail streams until interrupted, as the reader would with Ctrl-C: here after 3 s.
    const preamble =
      'curl() { if [[ "$*" == *events/stream* ]]; then command curl --max-time 3 "$@" || true; else command curl "$@"; fi; }\n';
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', preamble + script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, `${run.stderr}\n${run.stdout}`).toBe(0);
    const [, ...blocks] = run.stdout.split(/^=== block \d+ ===\n/m);
    expect(blocks).toHaveLength(5);
    const [multipart, base64, management, ingestion, cameras] = blocks as [string, string, string, string, string];

    // Predict, multipart and base64: the same detections of the demo scene.
    const detections = JSON.parse(multipart);
    expect(Object.keys(detections).length).toBeGreaterThan(0);
    expect(JSON.parse(base64)).toEqual(detections);

    // The documents' samples of that answer are the answer itself, labels in its order, or say they are abridged.
    for (const document of ['README.md', WALKTHROUGH]) {
      const samples = jsonSamples(readFileSync(join(ROOT, document), 'utf8'));
      expect(samples.length, document).toBeGreaterThan(0);
      const exact = samples.filter((sample) => !/\babridged\b/i.test(sample.intro));
      expect(exact.length, `${document}: its predict answer is shown whole`).toBeGreaterThan(0);
      for (const sample of exact) {
        const shown = JSON.parse(sample.json);
        const where = `${document}: the sample after "${sample.intro}" (not said to be abridged)`;
        // Same labels in the same order, same detections; numbers as printed,
        // give or take what another decoder (sharp without libturbojpeg) or
        // CPU moves in the third decimal.
        expect(
          JSON.stringify(shown, (_key, value) => (typeof value === 'number' ? 0 : value)),
          where,
        ).toBe(JSON.stringify(detections, (_key, value) => (typeof value === 'number' ? 0 : value)));
        const numbers = (value: unknown): number[] =>
          typeof value === 'number'
            ? [value]
            : value && typeof value === 'object'
              ? Object.values(value).flatMap(numbers)
              : [];
        const [expected, actual] = [numbers(detections), numbers(shown)];
        for (const [i, n] of actual.entries())
          expect(Math.abs(n - expected[i]!), `${where}: value ${i}`).toBeLessThanOrEqual(0.005);
      }
    }

    // The rule's conditions, the version Active at once, then its predict answer.
    const lines = management.trim().split('\n');
    expect(management).toContain('enterLandmark');
    expect(lines).toContain('"Active"');
    expect(JSON.parse(lines.at(-1)!)).toEqual(detections);

    // The device registered, walked into the park, and got the rule's notification.
    expect(ingestion).toContain('"You entered the park"');
    expect(ingestion).toContain('event: ready');

    // The camera: the dwell rule's conditions, its zone set, three frames each
    // seeing the two cones, the rule fired (the camera tagged) and the last
    // frame's event counting each label in the zone.
    expect(cameras.trim().split('\n')).toEqual([
      `"becomesTrue(heldFor(2, 0, detections('traffic cone', 'left') >= 1))"`,
      '[{"name":"left","polygon":[[0,0],[0.5,0],[0.5,1],[0,1]]}]',
      '2',
      '2',
      '2',
      '["cone-stayed"]',
      '{"left":{"cross":1,"circle":1,"traffic cone":2}}',
    ]);
  }, 180_000);
});
