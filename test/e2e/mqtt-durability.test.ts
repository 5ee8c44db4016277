// Nothing an MQTT PUBACK acknowledged is lost, and nothing sent again is
// stored twice: a device publishes numbered QoS 1 events, the server is
// killed with SIGKILL mid-stream, and after the restart the device sends
// every message it had no PUBACK for again, with the same packet ids (DUP),
// as a client does on reconnect. Every acknowledged number is there, and
// every number is stored exactly once.
import { afterAll, describe, expect, it } from 'vitest';
import type { IPublishPacket } from 'mqtt-packet';
import { ADMIN, Api, serverSql } from '../helpers/api.js';
import { freePort, RawMqtt } from '../helpers/mqtt.js';
import { createTestDatabase, removeDir, startServer, waitFor } from '../helpers/server.js';

let dataDir = '';
let database: Awaited<ReturnType<typeof createTestDatabase>>;

afterAll(async () => {
  await database?.drop();
  await removeDir(dataDir);
});

const WINDOW = 16;
/** PUBACKs before the SIGKILL: well under the device's burst (DEVICE_EVENT_BURST, 2000) */
const KILL_AT = 300;

describe('MQTT across a SIGKILL', () => {
  it('keeps every PUBACKed event and stores the retransmissions once', { timeout: 240_000 }, async () => {
    database = await createTestDatabase();
    const mqttPort = await freePort();
    const env = { ADMIN_PASSWORD: ADMIN.password, MQTT_PORT: String(mqttPort) };
    const first = await startServer({ modelsDir: '/nonexistent', databaseUrl: database?.url, env });
    dataDir = first.dataDir;
    // startServer returns at the HTTP listener's line; MQTT listens a moment after it
    await first.waitForLog(/mqtt listening/);
    const admin = await new Api(first.url).login(ADMIN.email, ADMIN.password);
    const channel = (await admin.post('/v2/channels', { name: 'sensors', type: 'iot' })).body.data;
    const device = (await (
      await fetch(`${first.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
      })
    ).json()) as { token: string; deviceId: string };
    const publish = (n: number, dup: boolean): IPublishPacket => ({
      cmd: 'publish',
      topic: `devices/${device.deviceId}/events`,
      payload: Buffer.from(JSON.stringify({ n })),
      qos: 1,
      messageId: n,
      dup,
      retain: false,
    });

    // Numbered events, WINDOW in flight, each next one sent as a PUBACK comes;
    // the server is killed from the handler of the KILL_AT-th PUBACK, so that
    // WINDOW messages are in flight however fast the host is (a poll from a
    // timer let a fast host send past the device's burst, and PUBACKs turned
    // to 0x97 before the kill).
    const { client, connack } = await RawMqtt.connect(mqttPort, device, { clientId: 'crash-round' });
    expect(connack).toMatchObject({ reasonCode: 0 });
    const acked = new Set<number>();
    const refused: number[] = [];
    let sent = 0;
    let counting = true;
    const send = () => client.send(publish(++sent, false));
    let killed = false;
    client.onPacket = (packet) => {
      if (packet.cmd !== 'puback' || !counting) return;
      if ((packet.reasonCode ?? 0) !== 0) refused.push(packet.reasonCode!);
      acked.add(packet.messageId!);
      if (acked.size < KILL_AT) return send();
      counting = false; // acks that arrive from here on are not counted
      killed = first.process.kill('SIGKILL');
    };
    for (let i = 0; i < WINDOW; i++) send();
    await waitFor(async () => killed, 60_000, `${KILL_AT} acknowledged events and the kill`);
    expect(refused).toEqual([]); // every PUBACK counted was a success
    await first.stop();
    client.end();

    const second = await startServer({ modelsDir: '/nonexistent', dataDir, databaseUrl: database?.url, env });
    await second.waitForLog(/mqtt listening/);
    const sql = await serverSql(second, database?.url);
    try {
      // The device's reconnect: what it holds no PUBACK for, sent again with DUP and the same packet ids.
      const { client: again } = await RawMqtt.connect(mqttPort, device, { clientId: 'crash-round' });
      const unacked = Array.from({ length: sent }, (_, i) => i + 1).filter((n) => !acked.has(n));
      const reacked = new Set<number>();
      again.onPacket = (packet) => {
        if (packet.cmd === 'puback') reacked.add(packet.messageId!);
      };
      again.sendAll(unacked.map((n) => publish(n, true)));
      await waitFor(async () => reacked.size === unacked.length, 30_000, 'the retransmissions acknowledged');
      again.end();

      const rows = await sql<{ n: number }[]>`
        SELECT (payload->>'n')::int AS n FROM events WHERE device_id = ${device.deviceId}`;
      const stored = rows.map((r) => r.n);
      expect([...acked].filter((n) => !stored.includes(n))).toEqual([]); // 0 PUBACKed events missing
      expect(stored.length).toBe(new Set(stored).size); // none twice
      expect(new Set(stored)).toEqual(new Set(Array.from({ length: sent }, (_, i) => i + 1)));
    } finally {
      await sql.end();
      await second.stop();
    }
  });
});
