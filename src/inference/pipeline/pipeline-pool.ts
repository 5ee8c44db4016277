// The pipeline workers (piscina, one per core by default): every CPU-heavy
// step of a prediction except the model run. The main thread only submits
// tasks: a request body moves to a worker by transfer, the input tensor
// comes back through shared memory, an image's outputs go in by transfer.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Logger } from '../../log.js';
import type {
  AnswersOutcome,
  AnswersTask,
  CropsOutcome,
  CropsTask,
  PipelineSettings,
  PipelineWorkerData,
  PostprocessOutcome,
  PostprocessTask,
  PreprocessOutcome,
  PreprocessTask,
} from './pipeline-worker.js';

const WORKER_FILE = new URL(`./pipeline-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

export class PipelinePool {
  private readonly piscina: Piscina;

  constructor(
    readonly workers: number,
    settings: PipelineSettings,
    log: Logger,
  ) {
    this.piscina = new Piscina({
      filename: WORKER_FILE.href,
      minThreads: workers,
      maxThreads: workers,
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: 1,
      // A thread logs as the server does: it builds its own logger from the settings.
      workerData: { ...settings, log: log.settings } satisfies PipelineWorkerData,
      // Development runs TypeScript through tsx; a build runs plain JS.
      execArgv: WORKER_FILE.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [],
      // libvips allocates outside the JS heap; keep V8's small.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    // A worker that dies is replaced by piscina; its task fails and is answered 500.
    this.piscina.on('error', (error) => log.error('pipeline worker error', { error: error as Error }));
  }

  preprocess(task: Omit<PreprocessTask, 'op'>): Promise<PreprocessOutcome> {
    return this.piscina.run({ op: 'preprocess', ...task }, { transferList: [task.body] }) as Promise<PreprocessOutcome>;
  }

  postprocess(task: Omit<PostprocessTask, 'op'>): Promise<PostprocessOutcome> {
    const buffers = Object.values(task.outputs).map((t) => (t.data as ArrayBufferView).buffer as ArrayBuffer);
    return this.piscina.run({ op: 'postprocess', ...task }, { transferList: buffers }) as Promise<PostprocessOutcome>;
  }

  /** A child stage's crops of a kept image (shared, not moved), as the child's input tensors. */
  crops(task: Omit<CropsTask, 'op'>): Promise<CropsOutcome> {
    return this.piscina.run({ op: 'crops', ...task }) as Promise<CropsOutcome>;
  }

  /** A child's outputs on its crops, moved in, decoded into answers. */
  answers(task: Omit<AnswersTask, 'op'>): Promise<AnswersOutcome> {
    const buffers = task.outputs.flatMap((o) =>
      Object.values(o).map((t) => (t.data as ArrayBufferView).buffer as ArrayBuffer),
    );
    return this.piscina.run({ op: 'answers', ...task }, { transferList: buffers }) as Promise<AnswersOutcome>;
  }

  /** tasks waiting for a free worker */
  get queued(): number {
    return this.piscina.queueSize;
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: false });
  }
}
