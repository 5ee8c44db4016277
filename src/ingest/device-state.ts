// Device state kept with the device row and updated in the same commit as
// the events: when it was last seen and its last known location (the
// statements that read and write it are in db/device-state.ts).
import type { IncomingEvent } from './event-writer.js';

export interface LastLocation {
  latitude: number;
  longitude: number;
  accuracy?: number | undefined;
  timestamp?: number | undefined;
}

/** The newest location an event carries: mobile `locations[]`, or IoT latitude/longitude fields. */
export function eventLocation(event: IncomingEvent): LastLocation | undefined {
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
