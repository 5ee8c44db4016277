// /v2 accounts: signup → verify → login, throttling, password reset,
// invitations, users and organizations, tokens of the wrong kind.
import type postgres from 'postgres';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Api, signUpTenant, tokenFromOutbox } from '../helpers/api.js';
import { startInProcessPlatform, stopInProcessPlatform, type InProcessServer } from '../helpers/in-process.js';

let server: InProcessServer;
let sql: postgres.Sql;
let anon: Api;
let admin: Api;

beforeAll(async () => {
  ({ server, sql, anon, admin } = await startInProcessPlatform({
    JWT_SECRET: 'test-secret-test-secret-test-secret-1234',
    TRUST_PROXY: '1',
  }));
});

afterAll(() => stopInProcessPlatform({ sql, server }));

describe('signup and login', () => {
  it('signs up, refuses login before verification, verifies by emailed token, logs in', async () => {
    const body = {
      email: 'Alice@Example.com',
      password: 'alice-password',
      name: 'Alice',
      organizationName: 'Alice Inc',
      locale: { timezone: 'Europe/Paris' },
    };
    expect((await anon.post('/v2/signup', body)).status).toBe(204);
    expect((await anon.post('/v2/signup', body)).status).toBe(409);
    const early = await anon.post('/v2/login', { email: 'alice@example.com', password: 'alice-password' });
    expect(early.status).toBe(403);
    expect(early.body.message).toBe('you need to verify your email');
    const token = await tokenFromOutbox(sql, 'alice@example.com');
    // Before: the one-time token sat in the outbox in clear; the body is sealed at rest.
    const [stored] = await sql<
      { body: string }[]
    >`SELECT body FROM outbox_emails WHERE to_address = 'alice@example.com'`;
    expect(stored!.body).toMatch(/^enc:v1:/);
    expect(stored!.body).not.toContain(token);
    const verified = await anon.post('/v2/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(typeof verified.body.token).toBe('string');
    expect((await anon.post('/v2/verify-email', { token })).status).toBe(401); // single use
    const alice = await anon.login('alice@example.com', 'alice-password');
    const me = await alice.get('/v2/users/me');
    expect(me.body.data).toMatchObject({
      email: 'alice@example.com',
      name: 'Alice',
      verifiedEmail: true,
      locale: { timezone: 'Europe/Paris' },
      role: 'admin',
    });
    const orgs = await alice.get('/v2/organizations');
    expect(orgs.body.data.map((o: { name: string }) => o.name)).toEqual(['Alice Inc']);
  });

  it('answers login with a bare {token} whose claims follow the original API', async () => {
    const res = await anon.post('/v2/login', ADMIN);
    expect(Object.keys(res.body)).toEqual(['token']);
    const claims = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ type: 'access', sub: expect.any(String), organizationId: expect.any(String) });
    expect(claims.exp - claims.iat).toBe(30 * 24 * 3600);
  });

  it('validates bodies and names the offending field', async () => {
    const res = await anon.post('/v2/signup', {
      email: 'not-an-email',
      password: 'short',
      name: '',
      organizationName: 'x',
      extra: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('invalid request body');
    for (const field of ['email', 'password', 'name']) expect(res.body.error).toContain(`${field}:`);
    expect(res.body.error).toContain('Unrecognized key: "extra"');
    const bad = await anon.request('POST', '/v2/login', '{"email": ', {});
    expect(bad.body).toMatchObject({ status: 400, message: 'invalid JSON body' });
  });

  it('slows down failed logins, then answers 429 with Retry-After', async () => {
    await signUpTenant(anon, sql, 'bob@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await anon.post('/v2/login', { email: 'bob@example.com', password: 'wrong-password' })).status);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    const locked = await anon.post('/v2/login', { email: 'bob@example.com', password: 'tenant-password-1' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body).toMatchObject({ status: 429, message: 'too many failed logins' });
  });
});

describe('login throttling under concurrency', () => {
  const from = (address: string) => ({ 'X-Forwarded-For': `203.0.113.99, ${address}` });
  const count = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  it('checks at most lockAfter passwords of one account however many guesses arrive at once', async () => {
    await signUpTenant(anon, sql, 'guessed@example.com');
    const guesses = Array.from({ length: 20 }, (_, i) =>
      anon.request('POST', '/v2/login', { email: 'guessed@example.com', password: `guess-${i}` }, from('198.51.100.1')),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    // Before the fix all 20 were checked (20 x 401).
    expect(count(statuses)).toEqual({ 401: 5, 429: 15 });
    const right = await anon.request(
      'POST',
      '/v2/login',
      { email: 'guessed@example.com', password: 'tenant-password-1' },
      from('198.51.100.1'),
    );
    expect(right.status).toBe(429);
    expect(right.body.error).toMatch(/^this account is locked after failed logins; try again in \d+ s$/);
  });

  it('limits attempts per client address across accounts, and other addresses are unaffected', async () => {
    const guesses = Array.from({ length: 40 }, (_, i) =>
      anon.request('POST', '/v2/login', { email: `nobody-${i}@example.com`, password: 'guess' }, from('198.51.100.2')),
    );
    const responses = await Promise.all(guesses);
    expect(count(responses.map((r) => r.status))).toEqual({ 401: 30, 429: 10 });
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.body.error).toMatch(/^too many login attempts from this address; try again in \d+ s$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The client's own claim (left of the trusted proxy's entry) is not believed.
    const spoofed = await anon.request('POST', '/v2/login', ADMIN, { 'X-Forwarded-For': '10.0.0.1, 198.51.100.2' });
    expect(spoofed.status).toBe(429);
    expect((await anon.request('POST', '/v2/login', ADMIN, from('198.51.100.3'))).status).toBe(200);
  });

  it('gives back the attempts of successful logins, so a busy address is not locked out by its own users', async () => {
    for (let i = 0; i < 35; i++) {
      expect((await anon.request('POST', '/v2/login', ADMIN, from('198.51.100.4'))).status).toBe(200);
    }
  });
});

describe('tokens', () => {
  it('refuses missing, malformed, forged, expired and non-access tokens', async () => {
    expect((await anon.get('/v2/users/me')).body).toEqual({
      status: 401,
      message: 'authentication required',
      error: 'missing Authorization header',
    });
    // Before: jose's own words ("Invalid Compact JWS", "signature verification failed").
    expect((await anon.withToken('garbage').get('/v2/users/me')).body).toEqual({
      status: 401,
      message: 'invalid token',
      error:
        'the token is not a JWT (three base64url parts joined by dots): expected the token POST /v2/login answers in "token"',
    });
    const key = new TextEncoder().encode('test-secret-test-secret-test-secret-1234');
    const forged = await new SignJWT({ type: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    expect((await anon.withToken(forged).get('/v2/users/me')).body).toMatchObject({
      status: 401,
      error:
        'the token\'s signature does not verify: it was not issued by this server, or was altered (expected the token POST /v2/login answers in "token")',
    });
    const expired = await new SignJWT({ type: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuedAt(1)
      .setExpirationTime(2)
      .sign(key);
    expect((await anon.withToken(expired).get('/v2/users/me')).body.error).toBe('token has expired');
    const verify = await new SignJWT({ type: 'verify' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setExpirationTime('1h')
      .sign(key);
    expect((await anon.withToken(verify).get('/v2/users/me')).body.error).toBe('not an access token');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"type":"access","sub":"x"}').toString('base64url')}.`;
    expect((await anon.withToken(none).get('/v2/users/me')).status).toBe(401);
  });
});

describe('password reset', () => {
  it('sends a reset email, sets the password once, and hides which addresses exist', async () => {
    expect((await anon.post('/v2/request-password', { email: 'nobody@example.com' })).status).toBe(204);
    await signUpTenant(anon, sql, 'carol@example.com');
    expect((await anon.post('/v2/request-password', { email: 'carol@example.com' })).status).toBe(204);
    const token = await tokenFromOutbox(sql, 'carol@example.com');
    const set = await anon.post('/v2/set-password', { token, password: 'new-carol-password' });
    expect(set.status).toBe(200);
    expect(typeof set.body.data.token).toBe('string');
    expect((await anon.post('/v2/set-password', { token, password: 'another-password' })).status).toBe(401);
    await anon.login('carol@example.com', 'new-carol-password');
  });
});

describe('sessions after a password reset', () => {
  it('ends every session opened before the new password, and keeps the one it opens', async () => {
    const before = await signUpTenant(anon, sql, 'grace@example.com');
    const switched = await before.post('/v2/set-organization', {
      organizationId: (await before.get('/v2/organizations')).body.data[0].id,
    });
    const other = anon.withToken(switched.body.token);
    expect((await before.get('/v2/users/me')).status).toBe(200);
    expect((await anon.post('/v2/request-password', { email: 'grace@example.com' })).status).toBe(204);
    const set = await anon.post('/v2/set-password', {
      token: await tokenFromOutbox(sql, 'grace@example.com'),
      password: 'grace-new-password',
    });
    expect(set.status).toBe(200);
    // Before: both old tokens kept working for their 30 days.
    for (const stale of [before, other]) {
      expect((await stale.get('/v2/users/me')).body).toEqual({
        status: 401,
        message: 'invalid token',
        error: 'this session ended when the password was changed; log in again',
      });
    }
    expect((await anon.withToken(set.body.data.token).get('/v2/users/me')).status).toBe(200);
    const fresh = await anon.login('grace@example.com', 'grace-new-password');
    expect((await fresh.get('/v2/users/me')).body.data.email).toBe('grace@example.com');
  });
});

describe('changing your own password', () => {
  it('needs the current password, ends every other session and keeps this one', async () => {
    const session = await signUpTenant(anon, sql, 'heidi@example.com');
    const other = await anon.login('heidi@example.com', 'tenant-password-1');
    // Before: no way to change it but a reset email (PATCH /v2/users/me took only name and locale).
    const wrong = await session.post('/v2/users/me/password', {
      currentPassword: 'not-it-at-all',
      newPassword: 'heidi-new-password',
    });
    expect(wrong.body).toEqual({
      status: 403,
      message: 'wrong password',
      error: 'currentPassword is not the current password of this account',
    });
    expect(
      (await session.post('/v2/users/me/password', { currentPassword: 'tenant-password-1', newPassword: 'short' }))
        .status,
    ).toBe(400);
    const changed = await session.post('/v2/users/me/password', {
      currentPassword: 'tenant-password-1',
      newPassword: 'heidi-new-password',
    });
    expect(changed.status).toBe(200);
    for (const stale of [session, other]) expect((await stale.get('/v2/users/me')).status).toBe(401);
    const kept = anon.withToken(changed.body.data.token);
    expect((await kept.get('/v2/users/me')).body.data).toMatchObject({ email: 'heidi@example.com', role: 'admin' });
    expect((await anon.post('/v2/login', { email: 'heidi@example.com', password: 'tenant-password-1' })).status).toBe(
      401,
    );
    expect((await anon.login('heidi@example.com', 'heidi-new-password')).token).toBeTruthy();
  });
});

describe('invitations and organizations', () => {
  it('invites a member who joins with the invited role; members may not invite', async () => {
    expect((await admin.post('/v2/users/invite', { emails: ['dave@example.com'], role: 'member' })).status).toBe(204);
    const token = await tokenFromOutbox(sql, 'dave@example.com');
    const accepted = await anon.post('/v2/accept-invite', { token, name: 'Dave', password: 'dave-password' });
    expect(accepted.status).toBe(200);
    const dave = anon.withToken(accepted.body.token);
    expect((await dave.get('/v2/users/me')).body.data.role).toBe('member');
    const invite = await dave.post('/v2/users/invite', { emails: ['eve@example.com'] });
    expect(invite.status).toBe(403);
    expect(invite.body).toEqual({ status: 403, message: 'forbidden', error: 'the member role may not users invite' });
    const users = await admin.get('/v2/users');
    expect(users.body.data.map((u: { email: string }) => u.email)).toEqual(['admin@example.com', 'dave@example.com']);
    expect((await anon.post('/v2/accept-invite', { token, name: 'Dave', password: 'dave-password' })).status).toBe(401);
  });

  it('creates, renames and deletes organizations, and switches between them', async () => {
    const created = await admin.post('/v2/organizations', { name: 'Second' });
    expect(created.body.data).toMatchObject({ name: 'Second', permissions: { admin: true } });
    const id = created.body.data.id;
    const switched = await admin.post('/v2/set-organization', { organizationId: id });
    const claims = JSON.parse(Buffer.from(switched.body.token.split('.')[1], 'base64url').toString());
    expect(claims.organizationId).toBe(id);
    expect((await admin.patch(`/v2/organizations/${id}`, { name: 'Renamed' })).body.data.name).toBe('Renamed');
    const outsider = await signUpTenant(anon, sql, 'frank@example.com');
    expect((await outsider.patch(`/v2/organizations/${id}`, { name: 'Mine' })).status).toBe(404);
    expect((await outsider.delete(`/v2/organizations/${id}`)).status).toBe(404);
    expect((await outsider.post('/v2/set-organization', { organizationId: id })).status).toBe(403);
    expect((await admin.delete(`/v2/organizations/${id}`)).status).toBe(204);
    expect((await admin.get('/v2/organizations')).body.data.map((o: { name: string }) => o.name)).toEqual([
      'Default organization',
    ]);
  });

  it('updates the current user', async () => {
    const res = await admin.patch('/v2/users/me', { name: 'Root', locale: { timezone: 'UTC' } });
    expect(res.body.data).toMatchObject({ name: 'Root', locale: { timezone: 'UTC' } });
    expect((await admin.patch('/v2/users/me', { email: 'x@example.com' })).status).toBe(400);
  });
});
