// The MQTT benchmark's hand-made bytes (bench/mqtt-devices.ts) against
// mqtt-packet, the library the server parses with: a publisher whose
// packets were malformed, or whose PUBACKs were matched to the wrong
// messages, would time something other than what its report says.
import mqttPacket, { type IPublishPacket, type Packet } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { PubackReader, PublishEncoder } from '../../bench/mqtt-devices.js';

function parseAll(bytes: Buffer): Packet[] {
  const parser = mqttPacket.parser({ protocolVersion: 5 });
  const packets: Packet[] = [];
  parser.on('packet', (packet: Packet) => packets.push(packet));
  parser.on('error', (error: Error) => {
    throw error;
  });
  parser.parse(bytes);
  return packets;
}

describe('the MQTT load generator codec', () => {
  it('encodes a QoS 1 PUBLISH that mqtt-packet reads back: topic, packet id, payload, user properties', () => {
    const plain = new PublishEncoder('devices/dev-1/events', undefined);
    const token = `t${'x'.repeat(300)}`; // a property block past one length byte
    const withToken = new PublishEncoder('devices/dev-1/events', { authorization: token });
    const payload = `{"seq":7,"note":"${'é'.repeat(100)}"}`; // multi-byte text, a remaining length past 127
    const [a, b] = parseAll(Buffer.concat([plain.encode(65535, payload), withToken.encode(1, '{"seq":8}')])) as [
      IPublishPacket,
      IPublishPacket,
    ];
    expect(a).toMatchObject({ cmd: 'publish', qos: 1, dup: false, retain: false, topic: 'devices/dev-1/events' });
    expect(a.messageId).toBe(65535);
    expect(a.payload.toString()).toBe(payload);
    expect(a.properties?.userProperties).toBeUndefined();
    expect(b.messageId).toBe(1);
    expect(b.payload.toString()).toBe('{"seq":8}');
    expect(b.properties?.userProperties).toEqual({ authorization: token });
  });

  it('reads PUBACKs split anywhere between reads, with and without their reason code, past other packets', () => {
    const generate = (packet: Packet) => mqttPacket.generate(packet, { protocolVersion: 5 });
    const stream = Buffer.concat([
      generate({ cmd: 'puback', messageId: 1, reasonCode: 0 }),
      generate({ cmd: 'pingresp' }),
      generate({ cmd: 'puback', messageId: 300, reasonCode: 0x97, properties: { reasonString: 'quota exceeded' } }),
      generate({ cmd: 'puback', messageId: 65535, reasonCode: 0x99 }),
    ]);
    const expected = [
      [1, 0],
      [300, 0x97],
      [65535, 0x99],
    ];
    for (let cut = 1; cut < stream.length; cut++) {
      const seen: number[][] = [];
      const reader = new PubackReader((id, code) => seen.push([id, code]));
      reader.feed(stream.subarray(0, cut));
      reader.feed(stream.subarray(cut));
      expect(seen, `split at byte ${cut}`).toEqual(expected);
    }
  });
});
