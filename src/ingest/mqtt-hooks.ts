// What a broker's HTTP auth hooks ask (POST /v1/mqtt/auth and /v1/mqtt/acl,
// src/http/routes/mqtt-hooks.ts), decided as the server's own MQTT listener
// decides: a device connects with its id as user name and its device token
// as password (valid as on HTTP: a revoked device, a disabled channel key
// are refused), publishes only to its own devices/<id>/events and /mobile,
// and subscribes only to its own devices/<id>/commands. The server's own
// broker user (MQTT_BROKER_USERNAME and MQTT_BROKER_PASSWORD, broker mode)
// is let in too, to subscribe to every device's messages, so one hook
// serves the devices and the replicas alike.
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors.js';
import { ALL_DEVICES_PUBLISH_FILTERS, commandsTopic, parsePublishTopic, publishTopicOf } from './device-topics.js';
import type { IngestService } from './ingest-service.js';

/** What a client asks to do with a topic: publish (write), subscribe (a filter), or receive a message (read). */
export type TopicAccess = 'publish' | 'subscribe' | 'read';

/** A verdict, and why not, for the broker's log (never the token). */
export interface HookVerdict {
  allow: boolean;
  reason: string;
}

/** Broker mode's own user: it subscribes to every device's messages. */
export interface BrokerUser {
  username: string;
  password: string | undefined;
  shareGroup: string;
}

const ALLOW: HookVerdict = { allow: true, reason: '' };
const deny = (reason: string): HookVerdict => ({ allow: false, reason });

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class MqttHooks {
  constructor(
    private readonly ingest: IngestService,
    private readonly brokerUser: BrokerUser | undefined,
  ) {}

  /** CONNECT: the user name is the device id, the password its device token (or the server's own broker user). */
  async authenticate(username: string, password: string): Promise<HookVerdict> {
    if (this.isBrokerUser(username)) {
      // Without a password set, the name alone would open every device's messages: refused.
      const expected = this.brokerUser!.password;
      return expected !== undefined && sameSecret(password, expected) ? ALLOW : deny('wrong password');
    }
    if (password === '') return deny('no password: the device token');
    try {
      const device = await this.ingest.authenticate(password);
      return device.deviceId === username ? ALLOW : deny('the user name is not the device id of the token');
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'unauthenticated') return deny(error.detail ?? error.message);
      throw error;
    }
  }

  /** A topic's access for a client that connected as `username` (authenticated by its CONNECT). */
  authorize(username: string, topic: string, access: TopicAccess): HookVerdict {
    if (this.isBrokerUser(username)) return this.brokerUserMay(topic, access);
    switch (access) {
      case 'publish':
        return publishTopicOf(topic, username)
          ? ALLOW
          : deny(`a device publishes to devices/${username}/events or /mobile only`);
      case 'subscribe':
      case 'read':
        return topic === commandsTopic(username)
          ? ALLOW
          : deny(`a device subscribes to devices/${username}/commands only`);
    }
  }

  private isBrokerUser(username: string): boolean {
    return this.brokerUser !== undefined && username === this.brokerUser.username;
  }

  /** The server's user reads every device's messages and publishes nothing. */
  private brokerUserMay(topic: string, access: TopicAccess): HookVerdict {
    if (access === 'publish') return deny('the server publishes nothing through the broker');
    if (access === 'read')
      return parsePublishTopic(topic) ? ALLOW : deny('the server reads devices/+/events and /mobile only');
    // A broker asks with the shared subscription's filter, or the filter without its $share/<group>/ prefix.
    const shared = `$share/${this.brokerUser!.shareGroup}/`;
    const filter = topic.startsWith(shared) ? topic.slice(shared.length) : topic;
    return ALL_DEVICES_PUBLISH_FILTERS.includes(filter)
      ? ALLOW
      : deny('the server subscribes to devices/+/events and /mobile only');
  }
}
