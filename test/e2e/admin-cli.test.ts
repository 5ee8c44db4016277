// `npm run admin -- reset-password`: the admin's password after the first
// start (ADMIN_PASSWORD applies on the first start only, and says so).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api.js';
import { createTestDatabase, removeDir, ROOT, startServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
let server: TestServer;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServer({ databaseUrl: database?.url, env: { ADMIN_PASSWORD: 'first-password-1' } });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await removeDir(server?.dataDir);
});

function admin(...args: string[]) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: server.dataDir };
  delete env.DATABASE_URL;
  if (database) env.DATABASE_URL = database.url;
  return run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], { cwd: ROOT, env });
}

const login = (password: string) =>
  fetch(`${server.url}/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password }),
  });

describe('the command-line tools', () => {
  it('answer --help with their usage, and exit 0', async () => {
    for (const [tool, usage] of [
      ['admin', 'Usage: npm run admin -- reset-password'],
      ['outbox', 'Usage: npm run outbox --'],
      ['model', 'Usage:'],
    ] as const) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', `src/cli/${tool}.ts`, '--help'], {
        cwd: ROOT,
      });
      expect(stdout, tool).toContain(usage);
    }
  });

  it('say so when the outbox holds nothing', async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: server.dataDir };
    delete env.DATABASE_URL;
    if (database) env.DATABASE_URL = database.url;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/outbox.ts'], { cwd: ROOT, env });
    expect(stdout).toBe('the outbox is empty: no email was queued\n');
  });
});

describe('npm run admin -- reset-password', () => {
  it('sets the password, ends older sessions, and generates one when none is given', async () => {
    const before = ((await (await login('first-password-1')).json()) as { token: string }).token;
    const chosen = await admin('reset-password', '--password', 'second-password-2');
    expect(chosen.stdout).toBe('password of admin@example.com set; their earlier sessions have ended\n');
    expect((await login('first-password-1')).status).toBe(401);
    expect((await login('second-password-2')).status).toBe(200);
    expect((await new Api(server.url).withToken(before).get('/v2/users/me')).status).toBe(401);

    const generated = await admin('reset-password');
    const password = /set: (\S+);/.exec(generated.stdout)?.[1];
    expect(password).toBeDefined();
    expect((await login(password!)).status).toBe(200);
  });

  it('refuses bad usage and unknown users', async () => {
    await expect(admin('reset-password', '--password', 'short')).rejects.toMatchObject({ code: 2 });
    await expect(admin('reset-password', '--email', 'nobody@example.com')).rejects.toMatchObject({
      stderr: 'error: no user nobody@example.com\n',
    });
    await expect(admin('rotate')).rejects.toMatchObject({
      code: 2,
      stdout: expect.stringContaining('Usage: npm run admin -- reset-password'),
    });
  });

  it('says so when ADMIN_PASSWORD is set after the first start and differs', async () => {
    await server.stop();
    server = await startServer({
      dataDir: server.dataDir,
      databaseUrl: database?.url,
      env: { ADMIN_PASSWORD: 'first-password-1' },
    });
    expect(server.stderr()).toMatch(
      /ADMIN_PASSWORD applies on the first start only and was not applied .*npm run admin -- reset-password/,
    );
    expect(server.stderr()).not.toContain('first-password-1');
  });
});
