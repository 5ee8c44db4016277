// The MQTT topics of a device, wherever its messages come from: the
// server's own listener (src/mqtt/connection.ts), a broker the server
// subscribes to (src/mqtt/broker-subscriber.ts) and the broker's auth hooks
// (mqtt-hooks.ts). A device publishes only under its own id and subscribes
// only to its own commands; pure functions, so every way in applies the
// same rule.

import { commandsTopic } from '../platform/device-commands.js';

/** The topics a device publishes to: each takes the body of one HTTP ingestion endpoint. */
export type PublishTopic = 'events' | 'mobile';

const PUBLISH_TOPIC = /^devices\/([^/+#]+)\/(events|mobile)$/;

/** The device a publish topic names and its kind, or undefined when it is no topic the server takes. */
export function parsePublishTopic(topic: string): { deviceId: string; kind: PublishTopic } | undefined {
  const match = PUBLISH_TOPIC.exec(topic);
  return match ? { deviceId: match[1]!, kind: match[2] as PublishTopic } : undefined;
}

/** The kind of a topic the device may publish to, or undefined when it names another device or nothing the server takes. */
export function publishTopicOf(topic: string, deviceId: string): PublishTopic | undefined {
  const parsed = parsePublishTopic(topic);
  return parsed?.deviceId === deviceId ? parsed.kind : undefined;
}

/** The one topic filter a device may subscribe to: its own commands, no wildcard (the rules' mqtt action publishes there). */
export { commandsTopic };

/** The filters a broker subscriber takes every device's messages with (before `$share/<group>/`). */
export const ALL_DEVICES_PUBLISH_FILTERS: readonly string[] = ['devices/+/events', 'devices/+/mobile'];
