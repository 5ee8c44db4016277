// The times devices and cameras send for their events (a mobile event's
// `timestamp`, an IoT event's `timestamp` / `timestamp_iso8601`, a frame's
// `time`): epoch milliseconds, or ISO 8601 text with a date, read strictly,
// and only between 2000-01-01 and a day from now. Anything else cannot be
// the time of an event a device sends today: epoch seconds read as
// milliseconds land in 1970, and `Date.parse` reads "-1" or "+1" as
// 2001-01-01. Stored, such a time silently breaks every rule that looks at
// how long a condition held (`for`, `heldFor`), so it is refused with a 400.

/** 2000-01-01T00:00:00Z: the earliest client time accepted. */
const EARLIEST_CLIENT_TIME_MS = 946_684_800_000;
/** How far ahead of the server's clock a device's clock may be. */
const CLIENT_TIME_LEAD_MS = 86_400_000;

/** The latest client time accepted now. */
function latestClientTime(now = Date.now()): number {
  return now + CLIENT_TIME_LEAD_MS;
}

/** An integer count of milliseconds within [2000-01-01, now + 1 day]. */
export function isClientTimeMs(value: unknown, now = Date.now()): value is number {
  return (
    Number.isSafeInteger(value) &&
    (value as number) >= EARLIEST_CLIENT_TIME_MS &&
    (value as number) <= latestClientTime(now)
  );
}

// ISO 8601's extended format with a date: a date alone (UTC midnight), or a
// date and time with seconds optional, a fraction optional and a zone
// (Z or ±hh:mm) required, since a time without one names no instant.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|([+-])(\d{2}):?(\d{2})))?$/;

/** The milliseconds of a strict ISO 8601 time with a date; undefined for anything else (Date.parse's lenient forms included). */
export function parseIso8601(text: string): number | undefined {
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year, month - 1, day); // Date.UTC reads the years 0-99 as 1900-1999
  // Date rolls 2026-02-30 over into March: a day the month does not have is refused.
  if (date.getUTCDate() !== day) return undefined;
  const utc = date.getTime();
  if (m[9] === undefined) return utc;
  const [offsetHours, offsetMinutes] = [Number(m[10]), Number(m[11])];
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
  return m[9] === '+' ? utc - offset : utc + offset;
}

/** What a client time must be, for error details. */
const CLIENT_TIME_FORMS =
  'epoch milliseconds (an integer) or an ISO 8601 time with a date and a zone, such as 2026-01-01T10:00:00Z';
export const CLIENT_TIME_RANGE = 'between 2000-01-01 and a day from now';

/**
 * Why milliseconds are not a client time, as a phrase to follow the value
 * (with a hint when a number reads as epoch seconds); undefined when they are one.
 */
export function whyNotClientTimeMs(ms: number, now = Date.now(), sentAsNumber = true): string | undefined {
  if (!Number.isSafeInteger(ms)) return 'is not an integer number of milliseconds';
  if (ms >= EARLIEST_CLIENT_TIME_MS && ms <= latestClientTime(now)) return undefined;
  // Epoch seconds of the years 2000 to now, sent where milliseconds are expected.
  const asSeconds = sentAsNumber && ms >= EARLIEST_CLIENT_TIME_MS / 1000 && ms <= latestClientTime(now) / 1000;
  const when = Number.isFinite(new Date(ms).getTime()) ? new Date(ms).toISOString() : 'no date';
  if (asSeconds) return `is ${when} read as milliseconds: epoch seconds? send milliseconds (${ms}000)`;
  return ms < EARLIEST_CLIENT_TIME_MS ? `is ${when}, before 2000-01-01` : `is ${when}, more than a day from now`;
}

/**
 * A client time sent as a JSON number (epoch milliseconds) or string (ISO
 * 8601), as IoT events send it: its milliseconds, or why it is not one.
 */
export function readClientTime(value: unknown, now = Date.now()): { ms: number } | { problem: string } {
  if (typeof value === 'number') {
    const why = whyNotClientTimeMs(value, now);
    return why === undefined
      ? { ms: value }
      : { problem: `${value} ${why}; expected ${CLIENT_TIME_FORMS}, ${CLIENT_TIME_RANGE}` };
  }
  if (typeof value === 'string') return readClientTimeText(value, false, now);
  return {
    problem: `expected ${CLIENT_TIME_FORMS}, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
  };
}

/**
 * A client time sent as text: ISO 8601, or with `digitsAreMs` (a query
 * parameter, where every value is text) a string of digits for epoch
 * milliseconds.
 */
export function readClientTimeText(
  text: string,
  digitsAreMs: boolean,
  now = Date.now(),
): { ms: number } | { problem: string } {
  const quoted = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  const digits = digitsAreMs && /^\d{1,16}$/.test(text);
  const ms = digits ? Number(text) : parseIso8601(text);
  if (ms === undefined) return { problem: `expected ${CLIENT_TIME_FORMS}, got ${quoted}` };
  const why = whyNotClientTimeMs(ms, now, digits);
  return why === undefined
    ? { ms }
    : { problem: `${quoted} ${why}; expected ${CLIENT_TIME_FORMS}, ${CLIENT_TIME_RANGE}` };
}
