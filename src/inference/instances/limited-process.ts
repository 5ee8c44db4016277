// A node process of the server's own code under a memory limit: the
// validation of a new version (validate-child.ts) and the instances of a
// version not trusted with the server's memory (instance-entry.ts). A
// graph can ask for what its author chooses (an Expand or ConstantOfShape
// sized by the image's pixels); in such a process the allocation fails, or
// the process dies, and the server and every other version go on.
//
// The limit is RLIMIT_DATA (`ulimit -d`): private writable memory (heap,
// anonymous mmap, so ONNX Runtime's tensors and arenas and V8's committed
// heap) but not address space that is only reserved. RLIMIT_AS (`ulimit -v`)
// cannot be used: V8 reserves about 1 GB of address space to start and each
// WebAssembly instance (tsx loads one) ~10 GB, so node fails to start under
// any useful AS limit.
//
// Such a process runs a tenant's graph: it gets a minimal environment, not
// the server's, whose settings hold the admin password, API key, JWT and
// secrets keys, the database URL and the S3 secret.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { CodedError, revivable } from '../../errors.js';

/**
 * What ONNX Runtime, the C++ runtime and V8 say when an allocation fails:
 * their errors have no other identity. Read where such an error is caught
 * (outOfMemory) and in a dead process's stderr, nowhere else.
 */
export const OUT_OF_MEMORY =
  /Failed to allocate memory|bad_alloc|out of memory|Cannot allocate memory|ENOMEM|Allocation failed/i;

/** An allocation the model asked for failed (in a limited process: past its memory limit). */
export class OutOfMemoryError extends CodedError {
  readonly code = 'MODEL_OUT_OF_MEMORY';
  static {
    revivable('MODEL_OUT_OF_MEMORY', ({ message }) => new OutOfMemoryError(message));
  }
}

/**
 * `error` as it leaves the code that caught it: a runtime's failed
 * allocation becomes an OutOfMemoryError (its message kept), so that the
 * other side of the channel tells it by its code; anything else as it is.
 * The allocation may have failed under our own error (a ModelLoadError of
 * a warm-up run quotes ONNX Runtime's words): running out of memory is
 * what it is known as then.
 */
export function outOfMemory(error: unknown): unknown {
  return error instanceof Error && !(error instanceof OutOfMemoryError) && OUT_OF_MEMORY.test(error.message)
    ? new OutOfMemoryError(error.message)
    : error;
}

/** The exit code of a process whose limit could not be set. */
export const LIMIT_NOT_SET = 125;

export interface LimitedProcessOptions {
  stdio: StdioOptions;
  /** the IPC channel's serialization, when stdio has one */
  serialization?: 'json' | 'advanced';
}

/** Variables a limited process keeps: what node, the shell and the C runtime read. */
const KEPT_VARIABLES = new Set(['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'LD_LIBRARY_PATH']);
/**
 * Families kept whole: ONNX Runtime's GPU providers (CUDA_VISIBLE_DEVICES,
 * the driver's NVIDIA_*) and thread pools' settings (OMP_*), none of them
 * the server's.
 */
const KEPT_PREFIXES = ['CUDA_', 'NVIDIA_', 'OMP_'];

/** The environment of a limited process: `environment`'s variables a model's runtime needs, nothing else. */
function limitedEnvironment(environment: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(environment).filter(
      ([name]) => KEPT_VARIABLES.has(name) || KEPT_PREFIXES.some((prefix) => name.startsWith(prefix)),
    ),
  );
}

/** Starts `entry` (a module of this code base) in node under a data limit of `memoryBytes`, with limitedEnvironment(). */
export function spawnLimited(entry: URL, memoryBytes: number, options: LimitedProcessOptions): ChildProcess {
  // Development runs TypeScript through tsx's loader, as the instance threads do.
  const loader = entry.pathname.endsWith('.ts')
    ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
    : [];
  const kib = Math.ceil(memoryBytes / 1024);
  return spawn(
    '/bin/sh',
    [
      '-c',
      `ulimit -d "$1" || exit ${LIMIT_NOT_SET}; shift; exec "$@"`,
      'sh',
      String(kib),
      process.execPath,
      ...loader,
      fileURLToPath(entry),
    ],
    {
      stdio: options.stdio,
      env: limitedEnvironment(),
      ...(options.serialization && { serialization: options.serialization }),
    },
  );
}
