// The models' names and their versions' numbers in memory, for the Open
// Inference Protocol, which addresses a model by its name (and whose
// metadata and ready calls answer synchronously, before any body is read).
// Reloaded when a version is added, removed, disabled or enabled (the
// model_versions NOTIFY, whichever server made the change), when this
// server renames a model, and every 30 s as a safety net (a rename on
// another server).
import type { Sql } from 'postgres';
import { listVersionNames } from '../db/model-versions.js';
import type { ModelNames } from '../inference/oip/service.js';
import type { Logger } from '../log.js';
import type { DatabaseVersionRegistry } from './model-version-registry.js';

export class ModelNameIndex implements ModelNames {
  private names = new Map<string, string>();
  private numbers = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly registry: DatabaseVersionRegistry,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.unsubscribe = await this.registry.subscribe(() => void this.reload());
    this.timer = setInterval(() => void this.reload(), 30_000);
    this.timer.unref();
  }

  async reload(): Promise<void> {
    try {
      const rows = await listVersionNames(this.sql);
      this.names = new Map(rows.map((r) => [r.modelId, r.modelName]));
      this.numbers = new Map(rows.map((r) => [r.id, r.version]));
    } catch (error) {
      this.log.warn('could not reload the names of models; keeping the previous ones', { error: error as Error });
    }
  }

  modelName(modelId: string): string | undefined {
    return this.names.get(modelId);
  }

  versionNumber(versionId: string): number | undefined {
    return this.numbers.get(versionId);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.unsubscribe?.().catch(() => {});
  }
}
