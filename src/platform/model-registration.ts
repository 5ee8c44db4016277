// Adding a model version from a directory: validate model.json against the
// ONNX file (a real session and warm-up, the same checks a worker makes, in
// a child process under the memory and time limits of model-validation.ts), copy the files
// into DATA_DIR so the version cannot change under the server, and insert it
// with its files in the model store. The insert is shared by the CLI and the
// upload API.
import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import {
  findModelByName,
  insertModel,
  insertModelVersion,
  lockModelForNewVersion,
  type ModelVersionRow,
} from '../db/model-versions.js';
import { notFound } from '../errors.js';
import { refuseExternalData } from '../inference/graph/external-data.js';
import { CONFIG_FILE, MODEL_FILE, readModelConfig, type ModelConfig } from '../inference/versions/model-config.js';
import type { ModelFiles, ModelStore } from '../inference/versions/model-store.js';
import { validateModel, type ModelValidationSettings } from '../inference/versions/model-validation.js';

/**
 * Loads the model once on the CPU, with a warm-up run, in a limited child
 * process, once it is known to keep every tensor inside model.onnx (only
 * the two files are copied, and a tensor's external location would be
 * resolved from the server's working directory). Throws the reason it
 * cannot serve.
 */
async function validateModelDirectory(directory: string, validation: ModelValidationSettings): Promise<ModelConfig> {
  const config = await readModelConfig(directory);
  await refuseExternalData(join(directory, MODEL_FILE));
  await validateModel(directory, config, validation);
  return config;
}

export interface NewStoredVersion {
  id: string;
  modelId: string;
  organizationId: string;
  /** where the files are: the version's entry in the local cache */
  directory: string;
  config: ModelConfig;
  public: boolean;
}

/**
 * Inserts a version and stores its files, in one transaction: no server
 * learns of the version (NOTIFY fires at commit) before it can fetch the
 * files. Versions of one model stored at once are numbered in turn (each
 * waits for the one before to commit); a model deleted meanwhile is not
 * found. Removes the directory if any of it fails.
 */
export async function insertStoredVersion(
  sql: Sql,
  store: ModelStore,
  version: NewStoredVersion,
): Promise<ModelVersionRow> {
  try {
    return await sql.begin(async (tx) => {
      if (!(await lockModelForNewVersion(tx, version.organizationId, version.modelId)))
        throw notFound('model not found');
      const row = await insertModelVersion(tx, version);
      await store.put(tx, version.id, version.directory);
      return row;
    });
  } catch (error) {
    await rm(version.directory, { recursive: true, force: true });
    throw error;
  }
}

export interface RegisterOptions {
  organizationId: string;
  sourceDir: string;
  public?: boolean;
  validation: ModelValidationSettings;
}

export async function registerModelDirectory(
  sql: Sql,
  files: ModelFiles,
  options: RegisterOptions,
): Promise<ModelVersionRow> {
  const config = await validateModelDirectory(options.sourceDir, options.validation);
  const id = newId();
  const directory = files.directoryOf(id);
  await mkdir(directory, { recursive: true });
  try {
    for (const file of [MODEL_FILE, CONFIG_FILE]) await cp(join(options.sourceDir, file), join(directory, file));
    const model =
      (await findModelByName(sql, options.organizationId, config.name)) ??
      (await insertModel(sql, {
        id: newId(),
        organizationId: options.organizationId,
        name: config.name,
        description: config.description,
      }));
    return await insertStoredVersion(sql, files.store, {
      id,
      modelId: model.id,
      organizationId: options.organizationId,
      directory,
      config,
      public: options.public ?? false,
    });
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
