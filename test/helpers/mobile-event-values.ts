// A mobile event, valid and in canonical form, holding an exact number of
// JSON values, for the per-event value cap (src/ingest/item-limits.ts).
import { ingress } from '../../src/ingest/generated/ingress.js';

const LOCATIONS = 1000; // each an object of 6 fields: 7,000 values, and the list
const WIFIS = 400; // each an object of 4 fields: 2,000 values, and the list
const FIXED = 2 + (1 + LOCATIONS * 7) + (1 + WIFIS * 5) + 1; // the event and its timestamp, both lists, the attributes object

/** An event of `total` values (9,006 to 10,005); the attributes make up the rest. Every value is non-zero, so protobuf carries each. */
export function mobileEventWithValues(total: number): Record<string, unknown> {
  const attributes = total - FIXED;
  if (attributes < 1 || attributes > 1000) throw new Error(`${total} values: out of this builder's range`);
  return {
    timestamp: 1_767_261_600_000,
    locations: Array.from({ length: LOCATIONS }, (_, i) => ({
      timestamp: 1_767_261_600_000 + i,
      latitude: 48.5,
      longitude: 2.25,
      velocity: 1,
      course: 90,
      accuracy: 5,
    })),
    wifis: Array.from({ length: WIFIS }, (_, i) => ({
      timestamp: 1_767_261_600_000 + i,
      mac: 'aa:bb',
      ssid: 'office',
      rssi: -60,
    })),
    attributes: Object.fromEntries(Array.from({ length: attributes }, (_, i) => [`a${i}`, 'v'])),
  };
}

export const protobufEvent = (event: Record<string, unknown>) =>
  ingress.Event.encode(ingress.Event.fromObject(event)).finish();
export const protobufBatch = (events: Record<string, unknown>[]) =>
  ingress.MobileEvents.encode(ingress.MobileEvents.fromObject({ events })).finish();
