// Nothing acknowledged is lost: events acknowledged (204) before the server
// is killed with SIGKILL are all there after a restart, and so are the
// actions they fired (the queue survives too).
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, Api, serverSql } from '../helpers/api.js';
import { postEvents } from '../helpers/event-load.js';
import { createTestDatabase, removeDir, startServer, waitFor } from '../helpers/server.js';

let dataDir = '';
let database: Awaited<ReturnType<typeof createTestDatabase>>;

afterAll(async () => {
  await database?.drop();
  await removeDir(dataDir);
});

describe('SIGKILL durability', () => {
  it('keeps every acknowledged event and fired action across a SIGKILL', { timeout: 240_000 }, async () => {
    database = await createTestDatabase();
    const env = { ADMIN_PASSWORD: ADMIN.password };
    const first = await startServer({ modelsDir: '/nonexistent', databaseUrl: database?.url, env });
    dataDir = first.dataDir;
    const admin = await new Api(first.url).login(ADMIN.email, ADMIN.password);
    const channel = (await admin.post('/v2/channels', { name: 'phones', type: 'ios' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'p', channelIds: [channel.id] })).body.data;
    await admin.post('/v2/rules', {
      projectId: project.id,
      name: 'every event',
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.k', operator: '==', value: 'v' }],
      actions: [{ type: 'push', subject: 'seen', message: 'seen' }],
    });
    const registration = (await (
      await fetch(`${first.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
      })
    ).json()) as {
      token: string;
      deviceId: string;
    };

    // Keep 16 clients sending; kill the server while requests are in flight.
    const load = postEvents(() => first.url, registration.token, { k: 'v' });
    const { acked } = load;
    await waitFor(async () => acked.length >= 300, 60_000, '300 acknowledged events');
    const stopped = load.stop(); // stop counting acks that arrive from here on
    first.process.kill('SIGKILL');
    await stopped;
    expect(await first.stop()).toBe(null);

    const second = await startServer({ modelsDir: '/nonexistent', dataDir, databaseUrl: database?.url, env });
    const sql = await serverSql(second, database?.url);
    try {
      const stored = new Set(
        (
          await sql<
            { t: number }[]
          >`SELECT (payload->>'timestamp')::bigint AS t FROM events WHERE device_id = ${registration.deviceId}`
        ).map((r) => Number(r.t)),
      );
      const lost = acked.filter((t) => !stored.has(t));
      expect(lost).toEqual([]);
      // Every stored event fired its rule; the queued actions run after the
      // restart. Jobs the killed server had claimed are retried once their
      // 60 s lease (longer than the slowest webhook) has run out, and a job
      // that had run just before the kill must not run a second time.
      await waitFor(
        async () => {
          const [row] = await sql<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM action_jobs WHERE device_id = ${registration.deviceId} AND status <> 'succeeded'`;
          return row!.n === 0;
        },
        150_000,
        'every queued action to run',
      );
      const [notified] = await sql<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM notifications WHERE device_id = ${registration.deviceId}`;
      expect(notified!.n).toBe(stored.size);
    } finally {
      await sql.end();
      await second.stop();
    }
  });
});
