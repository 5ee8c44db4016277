// A GPU provider's session is tried again after a clash with another thread's
// stream capture on the device (CUDA error 900, seen on an H200), the CPU's
// never, any other failure not at all, and a provider that keeps failing
// still falls through to the next one.
import { describe, expect, it } from 'vitest';
import type { SessionRunner } from '../../src/inference/instances/session-runner.js';
import { createSession, ModelLoadError } from '../../src/inference/instances/session.js';
import { Logger } from '../../src/log.js';
import { testLog } from '../helpers/log.js';

const runner = {} as SessionRunner;
const NO_WAIT = [0, 0, 0];

/** A creator that fails `failing` times per provider, counting attempts. */
function flaky(
  failing: Record<string, number>,
  message = 'CUDA failure 900: operation not permitted when stream is capturing',
) {
  const attempts: string[] = [];
  const create = async (_kind: string, _source: unknown, options: { provider: string }) => {
    attempts.push(options.provider);
    const count = attempts.filter((p) => p === options.provider).length;
    if (count <= (failing[options.provider] ?? 0)) throw new Error(`${message} (${count})`);
    return runner;
  };
  return { attempts, create: create as unknown as Parameters<typeof createSession>[3] };
}

const options = { providers: ['cuda', 'cpu'] as const, deviceId: 0, intraOpThreads: 1 };

describe('createSession', () => {
  it('tries a GPU provider again after a transient failure and keeps it', async () => {
    const { attempts, create } = flaky({ cuda: 2 });
    const lines: string[] = [];
    const log = new Logger({ level: 'warn', format: 'json' }, (line) => lines.push(line));
    const session = await createSession('model.onnx', options, log, create, NO_WAIT);
    expect(session.provider).toBe('cuda');
    expect(session.failures).toEqual([]);
    expect(attempts).toEqual(['cuda', 'cuda', 'cuda']);
    // Each retry is a warning in the logger it was given.
    expect(lines.map((line) => JSON.parse(line) as { msg: string; attempt: number })).toEqual([
      expect.objectContaining({ msg: 'session creation failed, trying again', attempt: 1 }),
      expect.objectContaining({ msg: 'session creation failed, trying again', attempt: 2 }),
    ]);
  });

  it('falls through to the next provider once the retries are spent, saying why', async () => {
    const { attempts, create } = flaky({ cuda: 99 });
    const session = await createSession('model.onnx', options, testLog, create, NO_WAIT);
    expect(session.provider).toBe('cpu');
    expect(attempts).toEqual(['cuda', 'cuda', 'cuda', 'cuda', 'cpu']);
    expect(session.failures).toEqual([
      'cuda (onnxruntime-node): CUDA failure 900: operation not permitted when stream is capturing (4)',
    ]);
  });

  it('does not retry a failure that is not a clash: a missing provider library falls through at once', async () => {
    const { attempts, create } = flaky({ cuda: 99 }, 'Failed to load library libonnxruntime_providers_shared.so');
    const session = await createSession('model.onnx', options, testLog, create, NO_WAIT);
    expect(session.provider).toBe('cpu');
    expect(attempts).toEqual(['cuda', 'cpu']);
  });

  it('never retries the CPU provider: its failure is the model', async () => {
    const { attempts, create } = flaky({ cpu: 1 });
    await expect(
      createSession('model.onnx', { ...options, providers: ['cpu'] }, testLog, create, NO_WAIT),
    ).rejects.toBeInstanceOf(ModelLoadError);
    expect(attempts).toEqual(['cpu']);
  });
});
