// Model validations in turn per organization (src/inference/versions/validation-turns.ts):
// one organization's burst of uploads does not put another's behind all of it.
import { describe, expect, it } from 'vitest';
import { ValidationTurns } from '../../src/inference/versions/validation-turns.js';

const flush = () => new Promise((r) => setImmediate(r));

/** A validation that ends when the test says so, recording when it started. */
function validation(turns: ValidationTurns, organizationId: string, name: string, started: string[]) {
  let finish!: () => void;
  const ended = turns.run(organizationId, () => {
    started.push(name);
    return new Promise<void>((resolve) => (finish = resolve));
  });
  return { ended, finish: () => finish() };
}

describe('ValidationTurns', () => {
  it('runs one validation of an organization at a time, the organizations in turn', async () => {
    const turns = new ValidationTurns(2);
    const started: string[] = [];
    const hostile = ['h1', 'h2', 'h3', 'h4'].map((name) => validation(turns, 'hostile', name, started));
    const victim = validation(turns, 'victim', 'v1', started);
    const other = validation(turns, 'other', 'o1', started);
    await flush();
    // Two places: one of hostile's and the victim's; without turns, h1 and h2.
    expect(started).toEqual(['h1', 'v1']);
    expect(turns.queued).toBe(4);
    victim.finish();
    await victim.ended;
    await flush();
    expect(started).toEqual(['h1', 'v1', 'o1']); // not h2: hostile has one running
    hostile[0]!.finish();
    await hostile[0]!.ended;
    await flush();
    expect(started).toEqual(['h1', 'v1', 'o1', 'h2']);
    other.finish();
    hostile[1]!.finish();
    await Promise.all([other.ended, hostile[1]!.ended]);
    await flush();
    expect(started).toEqual(['h1', 'v1', 'o1', 'h2', 'h3']);
    hostile[2]!.finish();
    await hostile[2]!.ended;
    await flush();
    hostile[3]!.finish();
    await hostile[3]!.ended;
    expect(started).toEqual(['h1', 'v1', 'o1', 'h2', 'h3', 'h4']);
    expect(turns.queued).toBe(0);
  });

  it('gives the place of a failed validation on', async () => {
    const turns = new ValidationTurns(1);
    const started: string[] = [];
    const failing = turns.run('a', async () => {
      started.push('a1');
      throw new Error('model loops');
    });
    const next = validation(turns, 'a', 'a2', started);
    await expect(failing).rejects.toThrow('model loops');
    await flush();
    expect(started).toEqual(['a1', 'a2']);
    next.finish();
    await next.ended;
  });
});
