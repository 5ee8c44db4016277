// Broker mode across a SIGKILL: nothing the broker handed a replica is lost,
// and nothing it hands again is stored twice. A device publishes numbered
// QoS 1 messages to Mosquitto (test/helpers/mosquitto.ts); the server, a
// child process subscribed in broker mode, is killed with SIGKILL while it
// stores them and started again under the same client id. The broker's
// PUBACK to the device means only that the broker has the message; the
// server's PUBACK to the broker goes after the commit, so what was in flight
// to the killed replica stays in its session and comes again (with the same
// packet ids, which the delivery key makes one event). Every number the
// device published is stored exactly once.
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, Api, serverSql } from '../helpers/api.js';
import { mosquittoTests, startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { createTestDatabase, removeDir, startServer, waitFor } from '../helpers/server.js';

let dataDir = '';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let broker: Mosquitto | undefined;

afterAll(async () => {
  await broker?.stop();
  await database?.drop();
  await removeDir(dataDir);
});

/** Messages the device publishes: well under its burst (DEVICE_EVENT_BURST below). */
const MESSAGES = 3000;
/** Events stored before the SIGKILL: the replica stores as fast as the device publishes, so the device is far from done. */
const KILL_AFTER = 300;

describe.skipIf(!mosquittoTests)('MQTT broker mode across a SIGKILL', () => {
  it('stores every message the device published once', { timeout: 240_000 }, async () => {
    broker = await startMosquitto();
    database = await createTestDatabase();
    const env = {
      ADMIN_PASSWORD: ADMIN.password,
      MQTT_BROKER_URL: broker.url,
      MQTT_BROKER_CLIENT_ID: 'durability-replica',
      DEVICE_EVENT_BURST: '10000',
    };
    const first = await startServer({ modelsDir: '/nonexistent', databaseUrl: database?.url, env });
    dataDir = first.dataDir;
    await first.waitForLog(/mqtt broker subscribed/);
    const admin = await new Api(first.url).login(ADMIN.email, ADMIN.password);
    const channel = (await admin.post('/v2/channels', { name: 'sensors', type: 'iot' })).body.data;
    const device = (await (
      await fetch(`${first.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
      })
    ).json()) as { token: string; deviceId: string };
    // The embedded PostgreSQL is the server's: each server's own connection, ended with it.
    let sql = await serverSql(first, database?.url);
    const stored = async () =>
      (
        await sql<{ count: number }[]>`SELECT count(*)::int AS count FROM events WHERE device_id = ${device.deviceId}`
      )[0]!.count;

    const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5, reconnectPeriod: 0 });
    try {
      // The device publishes every number (each acknowledged by the broker on receipt) while the replica stores them.
      const publishing = (async () => {
        for (let n = 1; n <= MESSAGES; n++)
          await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ n }), {
            qos: 1,
            properties: { userProperties: { authorization: device.token } },
          });
      })();
      const atKill = await waitFor(
        async () => {
          const count = await stored();
          return count >= KILL_AFTER && count;
        },
        60_000,
        `${KILL_AFTER} events stored`,
      );
      first.process.kill('SIGKILL');
      expect(atKill).toBeLessThan(MESSAGES); // mid-stream
      await first.stop();
      await sql.end({ timeout: 1 }).catch(() => {});
      await publishing;

      const second = await startServer({ modelsDir: '/nonexistent', dataDir, databaseUrl: database?.url, env });
      sql = await serverSql(second, database?.url);
      try {
        await waitFor(async () => (await stored()) >= MESSAGES, 120_000, 'every message stored after the restart');
        const rows = await sql<{ n: number }[]>`
          SELECT (payload->>'n')::int AS n FROM events WHERE device_id = ${device.deviceId}`;
        const numbers = rows.map((row) => row.n);
        expect(numbers.length).toBe(new Set(numbers).size); // none twice
        expect(new Set(numbers)).toEqual(new Set(Array.from({ length: MESSAGES }, (_, i) => i + 1)));
      } finally {
        await second.stop();
      }
    } finally {
      client.end(true);
      await sql.end();
    }
  });
});
