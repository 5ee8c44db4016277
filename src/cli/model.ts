// npm run model -- add <dir> [--public] | list
// Registers model directories as model versions in the server's database
// (DATABASE_URL, or the embedded one in DATA_DIR, shared with a running
// server). A running server deploys the new version within a moment.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { bootstrapOrganization } from '../db/accounts.js';
import { openDatabase } from '../db/database.js';
import { listModelVersionsWithModel } from '../db/model-versions.js';
import { setLogLevel } from '../log.js';
import { storedModelConfig } from '../inference/model-config.js';
import { ModelFiles } from '../inference/model-store.js';
import { createModelStore } from '../platform/database-model-store.js';
import { modelValidationSettings } from '../inference/validation.js';
import { registerModelDirectory } from '../platform/model-registration.js';
import { runCli } from './run.js';

const USAGE = `Usage:
  npm run model -- add <dir> [--public]   validate <dir>/model.onnx + model.json and register them as a new version
  npm run model -- list                   list model versions
`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { public: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, dir] = positionals;
  if (values.help || !command || (command === 'add' && !dir) || !['add', 'list'].includes(command)) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  setLogLevel('warn');
  const database = await openDatabase(config);
  try {
    if (command === 'list') {
      for (const v of await listModelVersionsWithModel(database.sql)) {
        process.stdout.write(`${v.id}  ${v.modelName} v${v.version}  ${v.status}${v.statusReason ? ` (${v.statusReason})` : ''}  ${v.directory}\n`);
      }
      return 0;
    }
    const organization = await bootstrapOrganization(database.sql);
    if (!organization) throw new Error('the database has no organization yet: start the server once first');
    const version = await registerModelDirectory(database.sql, new ModelFiles(createModelStore(config.modelStore, database.sql), config.dataDir), {
      organizationId: organization.id,
      sourceDir: resolve(dir!),
      public: values.public,
      validation: modelValidationSettings(config),
    });
    const { name, labels } = storedModelConfig(version.config);
    process.stderr.write(`registered ${name} v${version.version} (${labels.length} labels) in ${version.directory}\n`);
    process.stdout.write(`${version.id}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
