// Client times (lib/client-time.ts): epoch milliseconds or strict ISO 8601
// with a date, between 2000-01-01 and a day from now; never Date.parse's
// lenient readings ("+1" and "-1" were 2001-01-01).
import { describe, expect, it } from 'vitest';
import { parseIso8601, readClientTime, readClientTimeText } from '../../src/lib/client-time.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

describe('client times', () => {
  it('reads ISO 8601 with a date strictly: zones, fractions, a date alone', () => {
    expect(parseIso8601('2026-01-01')).toBe(Date.UTC(2026, 0, 1));
    expect(parseIso8601('2026-01-01T10:00:00Z')).toBe(Date.UTC(2026, 0, 1, 10));
    expect(parseIso8601('2026-01-01T10:00Z')).toBe(Date.UTC(2026, 0, 1, 10));
    expect(parseIso8601('2026-01-01 10:00:00.1234+01:30')).toBe(Date.UTC(2026, 0, 1, 8, 30, 0, 123));
    expect(parseIso8601('2026-01-01T10:00:00-0500')).toBe(Date.UTC(2026, 0, 1, 15));
    expect(parseIso8601('2024-02-29T23:59:59,999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
  });

  it.each([
    '+1',
    '-1',
    '1',
    '2026',
    '2026-01',
    '2026-1-1',
    '2026-01-01T10:00:00',
    '2026-02-29',
    '2026-13-01',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60:00Z',
    '2026-01-01T10:00:00+25:00',
    'Thu, 01 Jan 2026 10:00:00 GMT',
    '+275760-09-13T00:00:00Z',
    '2026-01-01T10:00:00Z ',
    '',
  ])('refuses %j, which Date.parse may read', (text) => {
    expect(parseIso8601(text)).toBeUndefined();
  });

  it('takes milliseconds between 2000-01-01 and a day from now, and says why it refuses the others', () => {
    expect(readClientTime(946_684_800_000, NOW)).toEqual({ ms: 946_684_800_000 });
    expect(readClientTime(NOW + 86_400_000, NOW)).toEqual({ ms: NOW + 86_400_000 });
    expect(readClientTime('2026-06-01T12:00:00+02:00', NOW)).toEqual({ ms: NOW + 10 * 3_600_000 });
    expect(readClientTime(1_767_261_600, NOW)).toEqual({
      problem:
        '1767261600 is 1970-01-21T10:54:21.600Z read as milliseconds: epoch seconds? send milliseconds (1767261600000); expected epoch milliseconds (an integer) or an ISO 8601 time with a date and a zone, such as 2026-01-01T10:00:00Z, between 2000-01-01 and a day from now',
    });
    expect(readClientTime(-1, NOW)).toMatchObject({
      problem: expect.stringMatching(/^-1 is 1969-12-31T23:59:59\.999Z, before 2000-01-01; /),
    });
    expect(readClientTime(NOW + 86_400_001, NOW)).toMatchObject({
      problem: expect.stringMatching(/more than a day from now/),
    });
    expect(readClientTime(1.5e12 + 0.5, NOW)).toMatchObject({ problem: expect.stringMatching(/not an integer/) });
    expect(readClientTime('+1', NOW)).toMatchObject({ problem: expect.stringMatching(/, got "\+1"$/) });
    expect(readClientTime('1767261600000', NOW)).toMatchObject({
      problem: expect.stringMatching(/got "1767261600000"$/),
    });
    expect(readClientTime(true, NOW)).toMatchObject({ problem: expect.stringMatching(/got boolean$/) });
    expect(readClientTime('1999-12-31', NOW)).toMatchObject({
      problem: expect.stringMatching(/^"1999-12-31" is 1999-12-31T00:00:00\.000Z, before 2000-01-01; /),
    });
  });

  it('takes digits as milliseconds only where every value is text (a query parameter)', () => {
    expect(readClientTimeText('1767261600000', true, NOW)).toEqual({ ms: 1_767_261_600_000 });
    expect(readClientTimeText('1767261600000', false, NOW)).toHaveProperty('problem');
    expect(readClientTimeText('-1', true, NOW)).toHaveProperty('problem');
    expect(readClientTimeText('1767261600', true, NOW)).toMatchObject({
      problem: expect.stringContaining('epoch seconds?'),
    });
  });
});
