// Three servers on one PostgreSQL behind a round-robin client, as behind a
// load balancer: a model uploaded to one is served by another (and a
// server holding files the database lacks stores them at start), and when one
// is killed with SIGKILL in the middle of ingestion, every event the
// replicas acknowledged is found by the events search, and each fired
// webhook reaches its receiver once (a repeat only from a job the killed
// replica had claimed, under the same idempotency key); a device's rate
// limit holds for the three together. The database is an external
// PostgreSQL where TEST_DATABASE_URL or TEST_REPLICAS_DATABASE_URL names one
// (CI's local service), else the embedded one the first server starts.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { buildConstantModel } from '../fixtures/onnx-models.js';
import { ADMIN, Api, serverDatabaseUrl, serverSql, uploadModelVersion } from '../helpers/api.js';
import { postEvents } from '../helpers/event-load.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { createTestDatabase, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

/** The next live replica for each request, as an L4 balancer would pick them. */
class RoundRobin {
  private turn = 0;
  private readonly live: TestServer[];

  constructor(servers: TestServer[]) {
    this.live = [...servers];
  }

  next(): TestServer {
    return this.live[this.turn++ % this.live.length]!;
  }

  /** Takes a replica out, as a balancer does once its health checks fail. */
  remove(server: TestServer): void {
    this.live.splice(this.live.indexOf(server), 1);
  }
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
/** the database every replica uses, and what they are started with */
let databaseUrl: string;
let env: Record<string, string>;
const replicas: TestServer[] = [];
let sql: postgres.Sql;
let admin: Api;
let receiver: Server;
let receiverUrl: string;
/** the Idempotency-Key of every webhook request received */
const deliveries: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    deliveries.push(String(req.headers['idempotency-key']));
    req.resume().on('end', () => res.end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

  database = await createTestDatabase({ replicas: true });
  // What every replica of one database must share: the signing secret of
  // user and device tokens and the key of stored webhook secrets (each is
  // generated into DATA_DIR otherwise, so differs between servers).
  env = {
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    // the receiver is on loopback, which webhooks may only reach when allowed
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  };
  // With the embedded PostgreSQL, the first server starts it and the others use it.
  const first = await startServer({ modelsDir: '/nonexistent', databaseUrl: database?.url, env });
  replicas.push(first);
  databaseUrl = await serverDatabaseUrl(first, database?.url);
  replicas.push(...(await Promise.all([1, 2].map(() => startReplica()))));
  sql = await serverSql(first, database?.url);
  admin = await new Api(first.url).login(ADMIN.email, ADMIN.password);
}, 180_000);

afterAll(async () => {
  await sql?.end();
  // The first server last: with the embedded PostgreSQL, it runs the database.
  for (const replica of [...replicas].reverse()) await replica.stop();
  await database?.drop();
  for (const replica of replicas) await removeDir(replica.dataDir);
  receiver?.close();
});

const at = (replica: TestServer) => new Api(replica.url, admin.token);

/** A replica on the shared database: a new one, or one restarted on its data directory. */
const startReplica = (dataDir?: string) => startServer({ modelsDir: '/nonexistent', databaseUrl, env, dataDir });

describe('three replicas on one database', () => {
  it('serves a model uploaded to one replica from another, and deletes its files everywhere', {
    timeout: 180_000,
  }, async () => {
    const first = replicas[0]!;
    let [, second, third] = replicas as [TestServer, TestServer, TestServer];
    const model = (await at(first).post('/v2/models', { name: 'detector' })).body.data;
    // A 4 MiB initializer: stored and fetched in several chunks.
    const onnx = buildConstantModel(fixtureSpec({ slow: { size: 1024, repeats: 1 } }));
    const uploaded = await uploadModelVersion(first.url, admin, model.id, {
      model: onnx,
      config: fixtureConfig('detector'),
    });
    expect(uploaded.status).toBe(200);
    const id = uploaded.body.data.id as string;

    const served = await waitFor(
      async () => {
        const version = (await at(third).get(`/v2/model-versions/${id}`)).body.data;
        return version.replicas.active === 3 ? version : undefined;
      },
      150_000,
      'the version Active on every replica',
    );
    expect(served).toMatchObject({ status: 'Active', replicas: { active: 3, failed: 0, total: 3 } });
    // The third replica loaded its own copy, fetched from the database.
    const digest = createHash('sha256').update(onnx).digest('hex');
    const copy = join(third.dataDir, 'models', id, 'model.onnx');
    expect(createHash('sha256').update(readFileSync(copy)).digest('hex')).toBe(digest);

    // A version uploaded before its files were stored in the database: a
    // server holding them stores them at its next start.
    await sql`DELETE FROM model_files WHERE version_id = ${id}`;
    await third.stop();
    third = replicas[2] = await startReplica(third.dataDir);
    const restored = await sql<
      { name: string; sha256: string }[]
    >`SELECT name, sha256 FROM model_files WHERE version_id = ${id} ORDER BY name`;
    expect(restored.map((f) => f.name)).toEqual(['model.json', 'model.onnx']);
    expect(restored[1]!.sha256).toBe(digest);

    const key = (await at(second).post('/v2/inference/api-keys', { name: 'replicas' })).body.data.apiKey as string;
    const image = await makeImage('png', 32, 32);
    // The key reaches the third replica's cache through NOTIFY.
    const prediction = await waitFor(
      async () => {
        const res = await predict(third.url, id, image, { key });
        return res.status === 200 ? res : undefined;
      },
      30_000,
      'a prediction through the third replica',
    );
    expect(prediction.body.cat[0].score).toBeCloseTo(0.9, 5);

    // A copy that does not match its hash is never loaded: the second
    // replica, restarted without its copy, fetches a corrupted chunk.
    await sql`UPDATE model_file_chunks SET data = ${Buffer.alloc(1024 * 1024)} WHERE version_id = ${id} AND name = 'model.onnx' AND seq = 0`;
    await second.stop();
    await removeDir(join(second.dataDir, 'models', id));
    second = replicas[1] = await startReplica(second.dataDir);
    const refused = await waitFor(
      async () => {
        const version = (await at(second).get(`/v2/model-versions/${id}`)).body.data;
        return version.replicas.failed === 1 ? version : undefined;
      },
      60_000,
      'the corrupt copy refused',
    );
    expect(refused).toMatchObject({ status: 'Failed', replicas: { active: 2, failed: 1, total: 3 } });
    expect(refused.statusReason).toContain(`model.onnx is corrupt: read ${onnx.length} bytes`);
    expect(existsSync(join(second.dataDir, 'models', id))).toBe(false);

    expect((await at(second).delete(`/v2/model-versions/${id}`)).status).toBe(204);
    await waitFor(
      async () => replicas.every((r) => !existsSync(join(r.dataDir, 'models', id))),
      30_000,
      'every cached copy removed',
    );
    const [stored] = await sql<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM model_file_chunks WHERE version_id = ${id}`;
    expect(stored!.n).toBe(0);
    expect((await predict(third.url, id, image, { key })).status).toBe(404);
  });

  it('holds a device to one rate limit whichever replicas its batches reach', async () => {
    const channel = (await at(replicas[0]!).post('/v2/channels', { name: 'limited', type: 'android' })).body.data;
    const registered = await fetch(`${replicas[2]!.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
    });
    const { token } = (await registered.json()) as { token: string };
    // Batches of 500 through the replicas in turn: the defaults (200 events/s,
    // bursts of 2,000) admit about four of them, where three replicas
    // counting apart would admit all twelve.
    const batch = JSON.stringify({ events: Array.from({ length: 500 }, (_, i) => ({ attributes: { i } })) });
    const balancer = new RoundRobin(replicas);
    const answers: Array<{ replica: TestServer; status: number }> = [];
    const started = Date.now();
    for (let i = 0; i < 12; i++) {
      const replica = balancer.next();
      const res = await fetch(`${replica.url}/v1/mobile/events/batch`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: batch,
      });
      answers.push({ replica, status: res.status });
    }
    const seconds = (Date.now() - started) / 1000;
    expect(answers.filter((a) => a.status !== 204 && a.status !== 429)).toEqual([]);
    const admitted = answers.filter((a) => a.status === 204).length * 500;
    expect(admitted).toBeGreaterThanOrEqual(2000);
    // the burst, what the rate refilled meanwhile, and a tenth of a second's
    // lease per replica that may sit unspent
    expect(admitted).toBeLessThanOrEqual(2000 + 200 * Math.ceil(seconds) + replicas.length * 20);
    // Every replica took from the one bucket, and every one refused once it was empty.
    for (const replica of replicas) {
      const own = answers.filter((a) => a.replica === replica).map((a) => a.status);
      expect(own).toContain(204);
      expect(own).toContain(429);
    }
  });

  it('loses no acknowledged event and runs each fired webhook once when a replica is killed mid-ingestion', {
    timeout: 300_000,
  }, async () => {
    const [first, second, third] = replicas as [TestServer, TestServer, TestServer];
    const channel = (await at(first).post('/v2/channels', { name: 'phones', type: 'ios' })).body.data;
    const project = (await at(second).post('/v2/projects', { name: 'p', channelIds: [channel.id] })).body.data;
    // Before any event: each replica loads the organization's rules at its first one.
    const rule = await at(third).post('/v2/rules', {
      projectId: project.id,
      name: 'every event',
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.k', operator: '==', value: 'v' }],
      actions: [{ type: 'webhook', method: 'POST', url: `${receiverUrl}/hook` }],
    });
    expect(rule.status).toBe(200);
    const registered = await fetch(`${second.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
    });
    const device = (await registered.json()) as { token: string; deviceId: string };

    const balancer = new RoundRobin(replicas);
    const load = postEvents(() => balancer.next().url, device.token, { k: 'v' });
    await waitFor(async () => load.acked.length >= 200, 60_000, '200 acknowledged events');
    second.process.kill('SIGKILL');
    expect(await second.stop()).toBe(null);
    balancer.remove(second);
    const atKill = load.acked.length;
    await waitFor(
      async () => load.acked.length >= atKill + 200,
      60_000,
      '200 more acknowledged events through the other replicas',
    );
    await load.stop();

    // Every acknowledged event, through the search API of the survivors.
    const found = new Set<number>();
    for (let since: string | undefined; ; ) {
      const page = await at(balancer.next()).post('/v2/events', {
        deviceId: device.deviceId,
        limit: 1000,
        sort: { order: 'asc' },
        ...(since && { sinceId: since }),
      });
      expect(page.status).toBe(200);
      for (const event of page.body.data) found.add(event.payload.timestamp);
      if (page.body.data.length < 1000) break;
      since = page.body.data.at(-1).id;
    }
    expect(load.acked.filter((t) => !found.has(t))).toEqual([]);

    // One job per stored event, whichever replica stored it; the jobs the
    // killed replica had claimed run once their lease is over.
    await waitFor(
      async () => {
        const [row] = await sql<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM action_jobs WHERE device_id = ${device.deviceId} AND status <> 'succeeded'`;
        return row!.n === 0;
      },
      150_000,
      'every queued action to run',
    );
    const jobs = await sql<
      { id: string; attempts: number }[]
    >`SELECT id, attempts FROM action_jobs WHERE device_id = ${device.deviceId}`;
    expect(jobs.length).toBe(found.size);
    expect(new Set(deliveries)).toEqual(new Set(jobs.map((j) => j.id)));
    // A webhook delivered twice is one whose first run the kill cut short
    // before it was recorded: claimed again after its lease, attempt 2.
    const repeated = new Set(deliveries.filter((key, i) => deliveries.indexOf(key) !== i));
    const reclaimed = new Set(jobs.filter((j) => j.attempts > 1).map((j) => j.id));
    expect([...repeated].filter((key) => !reclaimed.has(key))).toEqual([]);

    // The survivors remove the killed replica once its heartbeat is stale.
    await waitFor(
      async () => {
        const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM replicas`;
        return row!.n === 2;
      },
      60_000,
      'the killed replica removed',
    );
  });
});
