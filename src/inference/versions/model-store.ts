// Where a model version's files live so that every replica can load it,
// whichever server received the upload: a ModelStore (PostgreSQL by
// default, in platform/database-model-store.ts, which also picks the store
// MODEL_STORE names; or an S3-compatible bucket: s3-model-store.ts), with each
// server's DATA_DIR/models/<versionId> as its local cache. A server that lacks a version's files fetches them into a staging
// directory, checks each against its stored SHA-256, and only then renames
// the directory into place, so a directory in the cache is always whole.
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../../ids.js';
import type { Logger } from '../../log.js';
import { MODEL_FILE } from './model-config.js';

/**
 * Where versions' files are kept for every replica: put the files of a
 * version, fetch them back, remove them once the version is deleted.
 */
export interface ModelStore {
  /**
   * Stores the version's files from a local directory. With the transaction
   * that inserts the version, so that no server learns of a version (its
   * NOTIFY fires at commit) before its files can be fetched; opaque here
   * (the database store writes in it), and undefined to store them on
   * their own (in a transaction of their own where the store has them).
   */
  put(tx: unknown, versionId: string, directory: string): Promise<void>;
  /** Writes the version's files into `directory`, each checked; false when the store has none (a bundled model). */
  fetch(versionId: string, directory: string): Promise<boolean>;
  has(versionId: string): Promise<boolean>;
  /** Removes a deleted version's files; idempotent (every replica asks when it hears of the deletion). */
  remove(versionId: string): Promise<void>;
}

/** The model store and this server's copies of its files, under DATA_DIR/models. */
export class ModelFiles {
  constructor(
    readonly store: ModelStore,
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {}

  /** Where an uploaded or registered version's files are placed: the cache entry of the receiving server. */
  directoryOf(versionId: string): string {
    return join(this.dataDir, 'models', versionId);
  }

  /**
   * The directory to load a version from: its cache entry, fetched from the
   * store first if this server lacks it, or `registered` (the directory the
   * version was registered with) when the store has no files for it: a
   * bundled model every server has in MODELS_DIR.
   */
  async local(versionId: string, registered: string): Promise<string> {
    const cached = this.directoryOf(versionId);
    if (existsSync(join(cached, MODEL_FILE))) return cached;
    const staging = join(this.dataDir, 'models', `.fetch-${newId()}`);
    await mkdir(staging, { recursive: true });
    try {
      if (!(await this.store.fetch(versionId, staging))) return registered;
      await rename(staging, cached);
      return cached;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  /**
   * Stores a version's files if this server holds them and the store does
   * not: a version uploaded before files were stored in the database
   * (migration 015) is only on the disk of the server that received it.
   */
  async storeIfOnlyHere(versionId: string): Promise<void> {
    const cached = this.directoryOf(versionId);
    if (!existsSync(join(cached, MODEL_FILE)) || (await this.store.has(versionId))) return;
    await this.store.put(undefined, versionId, cached);
    this.log.info('stored the files of a model version held only here', { id: versionId });
  }

  /**
   * A deleted version: its cache entry and its files in the store. A store
   * that cannot be reached leaves objects only this id names (logged).
   */
  async remove(versionId: string): Promise<void> {
    await rm(this.directoryOf(versionId), { recursive: true, force: true });
    await this.store
      .remove(versionId)
      .catch((error: Error) =>
        this.log.warn('could not remove the stored files of a deleted model version', { id: versionId, error }),
      );
  }
}
