// npm run model -- add <dir> [--public] | list | remove <id> | disable <id> | enable <id>
// Registers model directories as model versions in the server's database
// (DATABASE_URL, or the embedded one in DATA_DIR, shared with a running
// server), lists them with their organizations, removes, disables and
// enables them. Every running server sharing the database follows within a
// moment (the model_versions trigger's NOTIFY): it deploys a new or enabled
// version, unloads a disabled one (its files kept) and a removed one.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { bootstrapOrganization } from '../db/accounts.js';
import { openDatabase } from '../db/database.js';
import { deleteModelVersionById, listModelVersionsWithModel, setModelVersionDisabled } from '../db/model-versions.js';
import { storedModelConfig } from '../inference/versions/model-config.js';
import { ModelFiles } from '../inference/versions/model-store.js';
import { createModelStore } from '../platform/database-model-store.js';
import { modelValidationSettings } from '../inference/versions/model-validation.js';
import { registerModelDirectory } from '../platform/model-registration.js';
import { runCli, toolLogger } from './run.js';

const USAGE = `Usage:
  npm run model -- add <dir> [--public]      validate <dir>/model.onnx + model.json and register them as a new version
  npm run model -- list                      list model versions: id, model and version, status, organization, directory
  npm run model -- remove <version-id>       delete a version and its files; every server unloads it
  npm run model -- disable <version-id>      keep a version but serve it nowhere (predict answers 404) until enabled
  npm run model -- enable <version-id>       serve a disabled version again
`;

const COMMANDS = ['add', 'list', 'remove', 'disable', 'enable'];

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { public: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, dir] = positionals;
  if (values.help || !command || !COMMANDS.includes(command) || (command !== 'list' && !dir)) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const log = toolLogger();
  const database = await openDatabase(config, 'tool', log);
  try {
    if (command === 'list') {
      for (const v of await listModelVersionsWithModel(database.sql)) {
        const status = v.disabled ? 'Disabled' : `${v.status}${v.statusReason ? ` (${v.statusReason})` : ''}`;
        process.stdout.write(
          `${v.id}  ${v.modelName} v${v.version}  ${status}  ${v.organizationName} (${v.organizationId})${v.public ? '  public' : ''}  ${v.directory}\n`,
        );
      }
      return 0;
    }
    const files = new ModelFiles(createModelStore(config.modelStore, database.sql), config.dataDir, log);
    if (command === 'remove') {
      const removed = await deleteModelVersionById(database.sql, dir!);
      if (!removed) throw new Error(`no model version ${dir}`);
      // Its files: this checkout's cache entry, and the store's copy (a bucket's objects outlive the row).
      await files.remove(dir!);
      process.stderr.write(`removed ${removed.modelName} v${removed.version} (${dir})\n`);
      return 0;
    }
    if (command === 'disable' || command === 'enable') {
      const changed = await setModelVersionDisabled(database.sql, dir!, command === 'disable');
      if (!changed) throw new Error(`no model version ${dir}`);
      const name = `${changed.modelName} v${changed.version} (${dir})`;
      process.stderr.write(changed.changed ? `${command}d ${name}\n` : `${name} is already ${command}d\n`);
      return 0;
    }
    const organization = await bootstrapOrganization(database.sql);
    if (!organization) throw new Error('the database has no organization yet: start the server once first');
    const version = await registerModelDirectory(database.sql, files, {
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
