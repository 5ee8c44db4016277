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

/** A payload's fields that may place its device (a mobile event's were validated at ingestion; an IoT payload is free-form). */
interface LocatingFields {
  locations?: unknown;
  latitude?: unknown;
  lat?: unknown;
  longitude?: unknown;
  lon?: unknown;
  lng?: unknown;
}

type Located = { latitude: number; longitude: number; accuracy?: number; timestamp?: number };

const isLatitude = (v: unknown): v is number => typeof v === 'number' && Math.abs(v) <= 90;
const isLongitude = (v: unknown): v is number => typeof v === 'number' && Math.abs(v) <= 180;
const isLocated = (l: unknown): l is Located =>
  typeof l === 'object' && l !== null && isLatitude((l as Located).latitude) && isLongitude((l as Located).longitude);

/** The newest location an event carries: mobile `locations[]`, or IoT latitude/longitude fields. */
export function eventLocation(event: RuleEvent): LastLocation | undefined {
  const p: LocatingFields = event.payload;
  if (Array.isArray(p.locations)) {
    let best: Located | undefined;
    for (const l of p.locations)
      if (isLocated(l) && (best === undefined || (l.timestamp ?? 0) >= (best.timestamp ?? 0))) best = l;
    if (best)
      return { latitude: best.latitude, longitude: best.longitude, accuracy: best.accuracy, timestamp: best.timestamp };
  }
  const lat = p.latitude ?? p.lat;
  const lon = p.longitude ?? p.lon ?? p.lng;
  if (isLatitude(lat) && isLongitude(lon)) return { latitude: lat, longitude: lon };
  return undefined;
}
