// Where an event puts its device: the last location the rules engine keeps
// in the device's state (with the landmarks it is inside) and evaluates
// landmark conditions against. Written with the device row in the commit of
// the event (db/device-state.ts).
import type { RuleEvent } from './batch.js';

export interface LastLocation {
  latitude: number;
  longitude: number;
  accuracy?: number | undefined;
  timestamp?: number | undefined;
}

/** The newest location an event carries: mobile `locations[]`, or IoT latitude/longitude fields. */
export function eventLocation(event: RuleEvent): LastLocation | undefined {
  const p = event.payload as Record<string, any>;
  if (Array.isArray(p.locations) && p.locations.length) {
    let best = p.locations[0];
    for (const l of p.locations) if ((l.timestamp ?? 0) >= (best.timestamp ?? 0)) best = l;
    return { latitude: best.latitude, longitude: best.longitude, accuracy: best.accuracy, timestamp: best.timestamp };
  }
  const lat = p.latitude ?? p.lat;
  const lon = p.longitude ?? p.lon ?? p.lng;
  if (typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
    return { latitude: lat, longitude: lon };
  }
  return undefined;
}
