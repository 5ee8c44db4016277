// vitest globalSetup of the integration project: one PostgreSQL for every
// in-process server of the run (the embedded one, or TEST_DATABASE_URL's
// server) and one database on it with every migration applied, the
// template each test file's database is copied from (CREATE DATABASE …
// TEMPLATE, test/helpers/in-process.ts): a file starts on a fresh database
// without starting PostgreSQL or migrating.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { connect } from '../../src/db/database.js';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { testLog } from './log.js';

/** Where the template is: the URL of a database to connect to for CREATE DATABASE, and the template's name. */
export interface TemplateDatabase {
  adminUrl: string;
  template: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: TemplateDatabase;
  }
}

const TEMPLATE = `sense_template_${process.pid}`;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = process.env.TEST_DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'sense-template-'));
  const embedded = dataDir ? await startEmbeddedDatabase(dataDir, 'server', testLog) : undefined;
  const adminUrl = process.env.TEST_DATABASE_URL ?? embedded!.url;
  const admin = connect(adminUrl, 1);
  await admin.unsafe(`CREATE DATABASE ${TEMPLATE}`);
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE}`;
  // Migrated, then closed: PostgreSQL copies a template no session is connected to.
  const template = connect(url.toString(), 1);
  await migrate(template, testLog); // at warn: not the migrations' lines, one per migration
  await template.end();
  project.provide('templateDatabase', { adminUrl, template: TEMPLATE });
  return async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await admin.end();
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}
