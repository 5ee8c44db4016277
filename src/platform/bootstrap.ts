// First start on an empty database: one organization, its admin, an
// inference API key and every model directory of MODELS_DIR as a model
// version. Generated secrets are printed once, to stdout, and never logged.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sql } from 'postgres';
import type { Queryable } from '../db/database.js';
import { newId } from '../ids.js';
import type { Config } from '../config.js';
import {
  countOrganizations,
  bootstrapOrganization,
  findUserByEmail,
  insertMembership,
  insertOrganization,
  insertUser,
} from '../db/accounts.js';
import { findKeyByDigest, insertInferenceKey } from '../db/inference-keys.js';
import { insertModel, insertModelVersion, updateVersionStages } from '../db/model-versions.js';
import { lockBootstrap } from '../db/locks.js';
import type { Logger } from '../log.js';
import { CONFIG_FILE, MODEL_FILE, type ModelConfig, readModelConfig } from '../inference/versions/model-config.js';
import { stageNodes, stagesProblem } from '../inference/versions/stage-tree.js';
import { digestApiKey, displayPrefix, generateApiKey } from './inference-keys.js';
import { generatePassword, hashPassword, verifyPassword } from './passwords.js';

/** The bundled demo model's version id, the same on every installation. */
export const DEMO_MODEL_VERSION_ID = '01JDEM0DETECT0R00000000001';
const DEMO_MODEL_DIRECTORY = 'demo';
/** The bundled demo segmentation model (models/demo-seg): its fixed version id. */
export const DEMO_SEG_MODEL_VERSION_ID = '01JDEM0SEGMENT000000000001';
const DEMO_SEG_MODEL_DIRECTORY = 'demo-seg';

/** The bundled demo colour classifier (models/demo-colour): a shape's colour from its crop. */
export const DEMO_COLOUR_MODEL_VERSION_ID = '01JDEM0CHR0MA0000000000001';
/** The bundled demo pipeline (models/demo-pipeline): the demo detector with the colour classifier as its child stage. */
export const DEMO_PIPELINE_MODEL_VERSION_ID = '01JDEM0P1PE11NE00000000001';
const DEMO_PIPELINE_MODEL_DIRECTORY = 'demo-pipeline';

/** Bundled demo directories: fixed version ids, and public (they answer every organization's key). */
const DEMO_VERSION_IDS: Readonly<Record<string, string>> = {
  [DEMO_MODEL_DIRECTORY]: DEMO_MODEL_VERSION_ID,
  [DEMO_SEG_MODEL_DIRECTORY]: DEMO_SEG_MODEL_VERSION_ID,
  'demo-colour': DEMO_COLOUR_MODEL_VERSION_ID,
  [DEMO_PIPELINE_MODEL_DIRECTORY]: DEMO_PIPELINE_MODEL_VERSION_ID,
};

type Print = (text: string) => void;

async function modelDirectories(modelsDir: string): Promise<string[]> {
  if (!existsSync(modelsDir)) return [];
  // existsSync follows symbolic links, so linked model directories count too.
  return (await readdir(modelsDir))
    .filter((name) => existsSync(join(modelsDir, name, MODEL_FILE)) && existsSync(join(modelsDir, name, CONFIG_FILE)))
    .sort();
}

async function registerBundledModels(
  tx: Queryable,
  organizationId: string,
  modelsDir: string,
  log: Logger,
): Promise<void> {
  const registered: Array<{ id: string; organizationId: string; public: boolean; config: ModelConfig }> = [];
  for (const name of await modelDirectories(modelsDir)) {
    const directory = join(modelsDir, name);
    let config;
    try {
      config = await readModelConfig(directory);
    } catch (error) {
      log.warn('skipping model directory', { directory, reason: (error as Error).message });
      continue;
    }
    const model = await insertModel(tx, {
      id: newId(),
      organizationId,
      name: config.name,
      description: config.description,
    });
    const demoId = DEMO_VERSION_IDS[name];
    const isDemo = demoId !== undefined;
    const version = await insertModelVersion(tx, {
      id: demoId ?? newId(),
      modelId: model.id,
      organizationId,
      directory,
      config,
      // The demos answer every organization's key, as the platform's public
      // pretrained models did (docs/CONTRACT.md#predict-route).
      public: isDemo,
    });
    log.info('registered model version', { id: version.id, name: config.name, directory });
    registered.push({ id: version.id, organizationId, public: isDemo, config });
  }
  // Stages name versions by id: checked once every directory is registered, whatever their order.
  const nodes = stageNodes(registered);
  for (const version of registered) {
    const problem = stagesProblem(
      { id: version.id, organizationId, labels: version.config.labels },
      version.config.stages,
      nodes,
    );
    if (!problem) continue;
    log.warn('model version registered without its stages', { id: version.id, reason: problem });
    await updateVersionStages(tx, organizationId, version.id, []);
  }
}

export async function bootstrap(
  sql: Sql,
  config: Config,
  log: Logger,
  print: Print = (t) => process.stdout.write(t),
): Promise<void> {
  const secrets: string[] = [];
  await sql.begin(async (tx) => {
    await lockBootstrap(tx);
    if ((await countOrganizations(tx)) === 0) await createFirstOrganization(tx, config, secrets, log);
    else if (config.adminPassword) await warnIfAdminPasswordIgnored(tx, config.adminEmail, config.adminPassword, log);
    if (config.inferenceApiKey) await acceptConfiguredKey(tx, config.inferenceApiKey, log);
  });
  if (secrets.length) {
    const demos = [`demo model version: ${DEMO_MODEL_VERSION_ID}`];
    if (existsSync(join(config.modelsDir, DEMO_SEG_MODEL_DIRECTORY, MODEL_FILE)))
      demos.push(`demo segmentation model version: ${DEMO_SEG_MODEL_VERSION_ID}`);
    if (existsSync(join(config.modelsDir, DEMO_PIPELINE_MODEL_DIRECTORY, MODEL_FILE)))
      demos.push(`demo pipeline version (children: colours): ${DEMO_PIPELINE_MODEL_VERSION_ID}`);
    print(
      [
        '',
        '=== First start: credentials (shown once, not stored in clear anywhere) ===',
        ...secrets,
        ...demos,
        '',
      ].join('\n') + '\n',
    );
  }
}

async function createFirstOrganization(tx: Queryable, config: Config, secrets: string[], log: Logger): Promise<void> {
  const org = await insertOrganization(tx, { id: newId(), name: 'Default organization' });
  const password = config.adminPassword ?? generatePassword();
  const admin = await insertUser(tx, {
    id: newId(),
    email: config.adminEmail,
    name: 'Administrator',
    passwordHash: await hashPassword(password),
    verifiedEmail: true,
  });
  await insertMembership(tx, org.id, admin.id, 'admin');
  log.info('bootstrap: created organization and admin', { organizationId: org.id, email: admin.email });
  if (!config.adminPassword) secrets.push(`admin login:        ${admin.email} / ${password}`);

  await registerBundledModels(tx, org.id, config.modelsDir, log);

  if (!config.inferenceApiKey) {
    const key = generateApiKey();
    await insertInferenceKey(tx, {
      id: newId(),
      organizationId: org.id,
      name: 'bootstrap key',
      keyHash: digestApiKey(key),
      keyPrefix: displayPrefix(key),
      createdBy: admin.id,
    });
    secrets.push(`inference API key:  ${key}`);
  }
}

/**
 * ADMIN_PASSWORD only sets the password of the admin the first start
 * creates; set later, it would be silently ignored. Say so when it does not
 * match (the password itself is never logged).
 */
async function warnIfAdminPasswordIgnored(sql: Queryable, email: string, password: string, log: Logger): Promise<void> {
  const admin = await findUserByEmail(sql, email);
  if (admin && (await verifyPassword(password, admin.passwordHash))) return;
  log.warn('ADMIN_PASSWORD applies on the first start only and was not applied', {
    email,
    fix: admin ? 'npm run admin -- reset-password' : `no user ${email} exists (ADMIN_EMAIL)`,
  });
}

/** INFERENCE_API_KEY is accepted as a key of the bootstrap organization on every start. */
async function acceptConfiguredKey(sql: Queryable, key: string, log: Logger): Promise<void> {
  const digest = digestApiKey(key);
  if (await findKeyByDigest(sql, digest)) return;
  const org = await bootstrapOrganization(sql);
  if (!org) return;
  await insertInferenceKey(sql, {
    id: newId(),
    organizationId: org.id,
    name: 'INFERENCE_API_KEY',
    keyHash: digest,
    keyPrefix: displayPrefix(key),
    createdBy: null,
  });
  log.info('accepted INFERENCE_API_KEY as an inference key', { organizationId: org.id });
}
