// Admission when request bodies would exceed MAX_BUFFERED_BYTES: a request
// waits, body unread, until memory frees (no 503 for a short squeeze), and is
// answered 503 "too many request bodies" only after QUEUE_HOLD_MS. And one
// organization's share: ORGANIZATION_QUEUE_SIZE requests over all its versions.
// The requests that hold memory or a share are uploads left half sent
// (heldPredict): a slow model held them for a time that depended on the
// host's speed, too short on fast CPUs and past INFERENCE_TIMEOUT_MS on slow ones.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePredictModels } from '../fixtures/predict-models.js';
import { heldPredict } from '../helpers/held-request.js';
import { encodeBmp } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { startWithModels, waitFor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ids: Record<string, string>;
let stop: () => Promise<void>;
const KIB = 1024;

beforeAll(async () => {
  // "slow" is only a second version here: one MatMul a run.
  ({ server, ids, stop } = await startWithModels(() => makePredictModels({ slowRepeats: 1 }), {
    MAX_BUFFERED_BYTES: String(1024 * KIB),
    QUEUE_HOLD_MS: '600',
    ORGANIZATION_QUEUE_SIZE: '5',
  }));
}, 180_000);

afterAll(() => stop?.());

/**
 * Waits until `count` requests hold places of `versionId`'s queue
 * (inference_queue_depth): the predict handler takes its place and reserves
 * its body memory in the same synchronous step, as soon as the head is read.
 */
async function holding(versionId: string, count: number): Promise<void> {
  const line = `inference_queue_depth{model_version="${versionId}"} ${count}\n`;
  await waitFor(
    async () => (await (await fetch(`${server.url}/metrics`)).text()).includes(line),
    10_000,
    `${count} requests in ${versionId}'s queue`,
  );
}

/** An uncompressed BMP of about `bytes` bytes: its body is what the budget counts. */
const bmpOf = (bytes: number) => {
  const side = Math.floor(Math.sqrt(bytes / 3));
  return encodeBmp(randomBytes(side * side * 3), side, side);
};

describe('the request-body memory budget', () => {
  it('holds requests until memory frees instead of refusing them', async () => {
    // 700 KiB each against 1 MiB: one body in memory at a time, the rest wait their turn.
    const image = bmpOf(700 * KIB);
    const results = await Promise.all(Array.from({ length: 5 }, () => predict(server.url, ids.fixture!, image)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('answers 503 with Retry-After after QUEUE_HOLD_MS, keeping the connection for a small body', async () => {
    // A half-sent upload holds ~1000 KiB of the budget; a 50 KiB request cannot fit meanwhile.
    const held = await heldPredict(server.port, ids.fixture!, bmpOf(1000 * KIB));
    await holding(ids.fixture!, 1); // its memory is reserved
    const started = Date.now();
    const refused = await predict(server.url, ids.fixture!, bmpOf(50 * KIB));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      status: 503,
      message: 'server is busy',
      error: 'too many request bodies are being received at once',
    });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550); // held for QUEUE_HOLD_MS first
    expect((await held.finish()).status).toBe(200);
    // Memory is back: the same request now passes.
    expect((await predict(server.url, ids.fixture!, bmpOf(50 * KIB))).status).toBe(200);
  });
});

describe("an organization's share", () => {
  it('refuses requests past ORGANIZATION_QUEUE_SIZE, all versions together', async () => {
    // Before: each version had its own queue only, so one tenant's many versions could fill the shared pipeline.
    const image = bmpOf(1 * KIB);
    const held = await Promise.all(Array.from({ length: 3 }, () => heldPredict(server.port, ids.slow!, image)));
    await holding(ids.slow!, 3); // three of the organization's five places taken
    const fast = await Promise.all(Array.from({ length: 3 }, () => predict(server.url, ids.fixture!, image)));
    const refused = fast.filter((r) => r.status === 503);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.body).toEqual({
      status: 503,
      message: 'server is busy',
      error: 'your organization has 5 predict requests in progress, its share of this server (ORGANIZATION_QUEUE_SIZE)',
    });
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect((await Promise.all(held.map((h) => h.finish()))).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await predict(server.url, ids.fixture!, image)).status).toBe(200);
  });
});
