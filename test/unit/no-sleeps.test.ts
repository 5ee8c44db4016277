// No fixed waits in the tests: a test that sleeps "long enough" for
// something to happen is slow where the host is fast and flaky where it is
// slow. Tests wait for the condition itself (waitFor in helpers/server.ts
// polls it, a stream's waitFor / a server's waitForLog listen for it), and a
// test that must show that something does NOT happen waits for a later event
// that would come after it. This scans test/**/*.ts for the usual shapes of a
// sleep; the few that stay are listed below, each with why.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST_DIR = join(import.meta.dirname, '..');
const THIS_FILE = 'unit/no-sleeps.test.ts';

/** The shapes of a fixed wait. */
const PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['a promise resolved by a timer', /new Promise(?:<[^>]*>)?\(\s*\(?\s*\w*\s*\)?\s*=>\s*\{?\s*setTimeout\(/],
  ['setTimeout(resolve, N)', /setTimeout\(\s*(?:r|res|resolve|done|next|ok)\s*,/],
  ['timers/promises setTimeout', /await\s+(?:setTimeout|setTimeoutPromise|wait)\(\s*\d/],
  ['sleep()', /\bsleep\(/],
  ['delay()', /\bdelay\(/],
];

/** Fixed waits that stay: file (relative to test/), a piece of the line, and why. */
const ALLOWED: ReadonlyArray<{ file: string; line: string; reason: string }> = [
  {
    file: 'helpers/server.ts',
    line: 'await new Promise((r) => setTimeout(r, 100));',
    reason: 'the poll interval of waitFor itself, the helper every condition wait goes through',
  },
  {
    file: 'e2e/readiness.test.ts',
    line: 'await new Promise((r) => setTimeout(r, 20));',
    reason:
      'the poll interval of a loop polling /v2/health/ready until 200, recording every 503 on the way (waitFor would swallow its assertions)',
  },
  {
    file: 'integration/inference-registry.test.ts',
    line: 'await new Promise((r) => setTimeout(r, 50));',
    reason:
      'the poll interval of its until(check) helper, a loop polling a condition (as waitFor does, for a synchronous check)',
  },
  {
    file: 'e2e/tenant-floods.test.ts',
    line: 'await new Promise((r) => setTimeout(r, 100));',
    reason:
      'part of what the test exercises: the flooding client retries a refused request after 100 ms (a load generator pacing itself so as not to take the CPU the server is measured on)',
  },
  {
    file: 'e2e/tenant-floods.test.ts',
    line: 'if (pause > 0) await new Promise((r) => setTimeout(r, pause));',
    reason:
      'part of what the test exercises: a client that asks once a second (the pace is the client, not a wait for the server)',
  },
  {
    file: 'e2e/rule-floods.test.ts',
    line: 'await new Promise((r) => setTimeout(r, Math.max(0, 1000 - took)));',
    reason:
      'part of what the test exercises: the sporadic victim asks once a second (the pace is the client, not a wait for the server)',
  },
  {
    file: 'e2e/rule-floods.test.ts',
    line: 'await new Promise((r) => setTimeout(r, Math.max(0, FLOOD_EVENT_MS - (Date.now() - started))));',
    reason:
      "part of what the test exercises: the flood's load generator paces its events FLOOD_EVENT_MS apart per client, so that what it costs the victims is its rules",
  },
  {
    file: 'e2e/slow-answers.test.ts',
    line: 'const slowWork = () => new Promise<void>((done) => setTimeout(done, HELD_MS));',
    reason:
      'part of what the test exercises: a route whose answer comes later than uWS idle timeout (no event to wait for: the time itself is the point)',
  },
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Hit {
  file: string;
  line: number;
  text: string;
  shape: string;
}

/** Every line of `source` that looks like a fixed wait. */
export function fixedWaits(file: string, source: string): Hit[] {
  const hits: Hit[] = [];
  source.split('\n').forEach((text, index) => {
    const code = text.replace(/^\s*(\/\/|\*).*$/, ''); // comments may talk about sleeps
    const shape = PATTERNS.find(([, pattern]) => pattern.test(code));
    if (shape) hits.push({ file, line: index + 1, text: text.trim(), shape: shape[0] });
  });
  return hits;
}

const allowedEntry = (hit: Hit) => ALLOWED.find((a) => a.file === hit.file && hit.text.includes(a.line));

describe('fixed waits in tests', () => {
  const hits = testFiles(TEST_DIR)
    .map((path) => relative(TEST_DIR, path).split(sep).join('/'))
    .filter((file) => file !== THIS_FILE)
    .flatMap((file) => fixedWaits(file, readFileSync(join(TEST_DIR, file), 'utf8')));

  it('are none, but for the allowlisted ones', () => {
    const unexplained = hits
      .filter((hit) => !allowedEntry(hit))
      .map((hit) => `test/${hit.file}:${hit.line}: ${hit.shape}: ${hit.text}`);
    expect(
      unexplained,
      'wait for the condition instead (helpers/server.ts waitFor), or allowlist it here with the reason',
    ).toEqual([]);
  });

  it('keeps no allowlist entry that matches nothing, and each says why', () => {
    for (const entry of ALLOWED) expect(entry.reason.length, `${entry.file}: a reason`).toBeGreaterThan(20);
    const stale = ALLOWED.filter((entry) => !hits.some((hit) => allowedEntry(hit) === entry)).map(
      (entry) => `${entry.file}: ${entry.line}`,
    );
    expect(stale).toEqual([]);
  });

  it('recognizes the shapes of a sleep, and not timeouts or fake timers', () => {
    const sample = [
      'await new Promise((r) => setTimeout(r, 300));',
      'await new Promise((resolve) => setTimeout(resolve, 3_000));',
      'await new Promise<void>((done) => { setTimeout(done, 50); });',
      'setTimeout(resolve, 10);',
      'await sleep(100);',
      'await delay(5);',
      "await setTimeout(200); // from 'node:timers/promises'",
      // not sleeps:
      'const timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);',
      'vi.advanceTimersByTime(5);',
      '// we used to sleep(100) here',
    ].join('\n');
    expect(fixedWaits('sample.ts', sample).map((h) => h.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
