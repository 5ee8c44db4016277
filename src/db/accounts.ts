// Queries of organizations, users and their memberships.
import type { Queryable } from './database.js';

export type Role = 'admin' | 'project_manager' | 'member';

export interface OrganizationRow {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  verifiedEmail: boolean;
  locale: Record<string, unknown>;
  /** access tokens issued under another version are refused */
  sessionVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export async function countOrganizations(sql: Queryable): Promise<number> {
  const [row] = await sql<[{ count: number }]>`SELECT count(*)::int AS count FROM organizations`;
  return row.count;
}

export async function insertOrganization(
  sql: Queryable,
  org: Pick<OrganizationRow, 'id' | 'name'>,
): Promise<OrganizationRow> {
  const [row] = await sql<OrganizationRow[]>`INSERT INTO organizations ${sql(org)} RETURNING *`;
  return row!;
}

export async function insertUser(
  sql: Queryable,
  user: Pick<UserRow, 'id' | 'email' | 'name' | 'passwordHash' | 'verifiedEmail'>,
): Promise<UserRow> {
  const [row] = await sql<UserRow[]>`INSERT INTO users ${sql(user)} RETURNING *`;
  return row!;
}

export async function insertMembership(
  sql: Queryable,
  organizationId: string,
  userId: string,
  role: Role,
): Promise<void> {
  await sql`INSERT INTO memberships (organization_id, user_id, role) VALUES (${organizationId}, ${userId}, ${role})`;
}

/** The first organization ever created: the one bootstrap made. */
export async function bootstrapOrganization(sql: Queryable): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`SELECT * FROM organizations ORDER BY created_at, id LIMIT 1`;
  return row;
}

export async function findMembershipRole(
  sql: Queryable,
  organizationId: string,
  userId: string,
): Promise<Role | undefined> {
  const [row] = await sql<[{ role: Role }?]>`
    SELECT role FROM memberships WHERE organization_id = ${organizationId} AND user_id = ${userId}`;
  return row?.role;
}

export async function findUserByEmail(sql: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`SELECT * FROM users WHERE email = ${email.toLowerCase()}`;
  return row;
}

export async function findUser(sql: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`SELECT * FROM users WHERE id = ${id}`;
  return row;
}

export async function updateUser(
  sql: Queryable,
  id: string,
  changes: Partial<Pick<UserRow, 'name' | 'locale' | 'passwordHash' | 'verifiedEmail'>>,
): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    UPDATE users SET ${sql(changes as Record<string, unknown>)}, updated_at = now() WHERE id = ${id} RETURNING *`;
  return row;
}

/** Ends every session of the user (their tokens carry the old version); returns the new version. */
export async function bumpSessionVersion(sql: Queryable, id: string): Promise<number | undefined> {
  const [row] = await sql<[{ sessionVersion: number }?]>`
    UPDATE users SET session_version = session_version + 1 WHERE id = ${id} RETURNING session_version`;
  return row?.sessionVersion;
}

export async function findSessionVersion(sql: Queryable, id: string): Promise<number | undefined> {
  const [row] = await sql<[{ sessionVersion: number }?]>`SELECT session_version FROM users WHERE id = ${id}`;
  return row?.sessionVersion;
}

export interface MemberRow extends UserRow {
  role: Role;
}

export async function listMembers(sql: Queryable, organizationId: string): Promise<MemberRow[]> {
  return sql<MemberRow[]>`
    SELECT u.*, m.role FROM users u JOIN memberships m ON m.user_id = u.id
    WHERE m.organization_id = ${organizationId} ORDER BY u.created_at, u.id`;
}

export interface OrganizationWithRole extends OrganizationRow {
  role: Role;
}

export async function listUserOrganizations(sql: Queryable, userId: string): Promise<OrganizationWithRole[]> {
  return sql<OrganizationWithRole[]>`
    SELECT o.*, m.role FROM organizations o JOIN memberships m ON m.organization_id = o.id
    WHERE m.user_id = ${userId} ORDER BY o.created_at, o.id`;
}

export async function findOrganization(sql: Queryable, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`SELECT * FROM organizations WHERE id = ${id}`;
  return row;
}

export async function renameOrganization(
  sql: Queryable,
  id: string,
  name: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await sql<
    OrganizationRow[]
  >`UPDATE organizations SET name = ${name}, updated_at = now() WHERE id = ${id} RETURNING *`;
  return row;
}

/** Deletes an organization with everything in it (events have no foreign key: deleted here). */
export async function deleteOrganization(sql: Queryable, id: string): Promise<boolean> {
  const work = async (tx: Queryable) => {
    await tx`DELETE FROM events WHERE organization_id = ${id}`;
    return (await tx`DELETE FROM organizations WHERE id = ${id}`).count > 0;
  };
  return 'savepoint' in sql ? sql.savepoint(work) : (sql as import('postgres').Sql).begin(work);
}

export type AccountTokenKind = 'verify' | 'reset' | 'invite';

export interface AccountTokenRow {
  id: string;
  kind: AccountTokenKind;
  tokenHash: string;
  userId: string | null;
  organizationId: string | null;
  email: string;
  role: Role | null;
  createdBy: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export async function insertAccountToken(
  sql: Queryable,
  token: Pick<AccountTokenRow, 'id' | 'kind' | 'tokenHash' | 'email' | 'expiresAt'> &
    Partial<Pick<AccountTokenRow, 'userId' | 'organizationId' | 'role' | 'createdBy'>>,
): Promise<void> {
  await sql`INSERT INTO account_tokens ${sql(token as Record<string, unknown>)}`;
}

/** Marks an unexpired, unused, unrevoked token of `kind` used and returns it; undefined otherwise. */
export async function consumeAccountToken(
  sql: Queryable,
  kind: AccountTokenKind,
  tokenHash: string,
): Promise<AccountTokenRow | undefined> {
  const [row] = await sql<AccountTokenRow[]>`
    UPDATE account_tokens SET used_at = now()
    WHERE token_hash = ${tokenHash} AND kind = ${kind} AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
    RETURNING *`;
  return row;
}

export async function findAccountToken(sql: Queryable, tokenHash: string): Promise<AccountTokenRow | undefined> {
  const [row] = await sql<AccountTokenRow[]>`SELECT * FROM account_tokens WHERE token_hash = ${tokenHash}`;
  return row;
}

export interface ThrottlePolicy {
  /** failures older than this are forgotten */
  windowSeconds: number;
  /** the attempt that reaches this count locks the key */
  lockAfter: number;
  lockSeconds: number;
}

export type LoginAttempt = { admitted: true; failures: number } | { admitted: false; lockedUntil: Date };

/**
 * Counts an attempt on `key` before its password is checked, or refuses it
 * while the key is locked. Counting first is what makes the limit hold under
 * concurrency: the UPDATE re-checks the lock on the row's latest version
 * after waiting for concurrent attempts (READ COMMITTED re-evaluates its
 * WHERE), so N simultaneous guesses are admitted one by one and the one that
 * reaches `lockAfter` locks out the rest. A successful login then forgets or
 * gives back its count (see forgetLoginAttempts, refundLoginAttempt).
 */
export async function claimLoginAttempt(sql: Queryable, key: string, policy: ThrottlePolicy): Promise<LoginAttempt> {
  const { windowSeconds, lockAfter, lockSeconds } = policy;
  await sql`INSERT INTO login_throttle (key, failures, last_failure) VALUES (${key}, 0, now()) ON CONFLICT (key) DO NOTHING`;
  // Old values on the right of SET: each admitted attempt counts on top of
  // the row as the previous one left it.
  const counted = sql`CASE WHEN last_failure < now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE failures + 1 END`;
  const [claimed] = await sql<{ failures: number }[]>`
    UPDATE login_throttle SET
      failures = ${counted},
      last_failure = now(),
      locked_until = CASE WHEN ${counted} >= ${lockAfter} THEN now() + make_interval(secs => ${lockSeconds}) END
    WHERE key = ${key} AND (locked_until IS NULL OR locked_until <= now())
    RETURNING failures`;
  if (claimed) return { admitted: true, failures: claimed.failures };
  const [locked] = await sql<{ lockedUntil: Date }[]>`SELECT locked_until FROM login_throttle WHERE key = ${key}`;
  return { admitted: false, lockedUntil: locked?.lockedUntil ?? new Date() };
}

/** A successful login: the account's failures are forgotten. */
export async function forgetLoginAttempts(sql: Queryable, key: string): Promise<void> {
  await sql`DELETE FROM login_throttle WHERE key = ${key}`;
}

/** A successful login gives back the attempt it claimed on `key`, and only that one. */
export async function refundLoginAttempt(sql: Queryable, key: string): Promise<void> {
  await sql`UPDATE login_throttle SET failures = greatest(failures - 1, 0) WHERE key = ${key}`;
}
