// The set-up most end-to-end files share: a fresh database (embedded, or on
// TEST_DATABASE_URL's server), a server without models, the bootstrap admin
// logged in, and a member of the same organization when asked.
import type postgres from 'postgres';
import { ADMIN, Api, rememberServerKey, serverSql, tokenFromOutbox } from './api.js';
import { createTestDatabase, removeDir, startServer, type StartOptions, type TestServer } from './server.js';

export interface Platform {
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  server: TestServer;
  sql: postgres.Sql;
  anon: Api;
  admin: Api;
}

export async function startPlatform(
  env: Record<string, string> = {},
  options: Omit<StartOptions, 'env' | 'databaseUrl'> = {},
): Promise<Platform> {
  const database = await createTestDatabase();
  const server = await startServer({
    modelsDir: '/nonexistent',
    ...options,
    databaseUrl: database?.url,
    env: { ADMIN_PASSWORD: ADMIN.password, ...env },
  });
  const sql = await serverSql(server, database?.url);
  rememberServerKey(sql, server.dataDir);
  const anon = new Api(server.url);
  return { database, server, sql, anon, admin: await anon.login(ADMIN.email, ADMIN.password) };
}

export async function stopPlatform(platform: Partial<Platform>): Promise<void> {
  await platform.sql?.end();
  await platform.server?.stop();
  await platform.database?.drop();
  if (platform.server) await removeDir(platform.server.dataDir);
}

/** Invites `email` as a member of the admin's organization and returns the member, logged in. */
export async function inviteMember(
  platform: Pick<Platform, 'anon' | 'admin' | 'sql'>,
  email = 'member@example.com',
): Promise<Api> {
  const invited = await platform.admin.post('/v2/users/invite', { emails: [email], role: 'member' });
  if (invited.status !== 204) throw new Error(`invite failed: ${invited.status}`);
  const accepted = await platform.anon.post('/v2/accept-invite', {
    token: await tokenFromOutbox(platform.sql, email),
    name: 'Member',
    password: 'member-password',
  });
  if (accepted.status !== 200) throw new Error(`accept-invite failed: ${accepted.status}`);
  return platform.anon.withToken(accepted.body.token);
}
