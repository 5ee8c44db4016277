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
  createdAt: Date;
  updatedAt: Date;
}

export async function countOrganizations(sql: Queryable): Promise<number> {
  const [row] = await sql<[{ count: number }]>`SELECT count(*)::int AS count FROM organizations`;
  return row.count;
}

export async function insertOrganization(sql: Queryable, org: Pick<OrganizationRow, 'id' | 'name'>): Promise<OrganizationRow> {
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

export async function insertMembership(sql: Queryable, organizationId: string, userId: string, role: Role): Promise<void> {
  await sql`INSERT INTO memberships (organization_id, user_id, role) VALUES (${organizationId}, ${userId}, ${role})`;
}

/** The first organization ever created: the one bootstrap made. */
export async function bootstrapOrganization(sql: Queryable): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`SELECT * FROM organizations ORDER BY created_at, id LIMIT 1`;
  return row;
}

export async function findMembershipRole(sql: Queryable, organizationId: string, userId: string): Promise<Role | undefined> {
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

export async function renameOrganization(sql: Queryable, id: string, name: string): Promise<OrganizationRow | undefined> {
  const [row] = await sql<OrganizationRow[]>`UPDATE organizations SET name = ${name}, updated_at = now() WHERE id = ${id} RETURNING *`;
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
export async function consumeAccountToken(sql: Queryable, kind: AccountTokenKind, tokenHash: string): Promise<AccountTokenRow | undefined> {
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

export interface LoginThrottleRow {
  email: string;
  failures: number;
  lastFailure: Date;
  lockedUntil: Date | null;
}

export async function findLoginThrottle(sql: Queryable, email: string): Promise<LoginThrottleRow | undefined> {
  const [row] = await sql<LoginThrottleRow[]>`SELECT * FROM login_throttle WHERE email = ${email}`;
  return row;
}

/** Counts a failure (failures older than `windowSeconds` are forgotten) and locks the account past `lockAfter`. */
export async function recordLoginFailure(
  sql: Queryable,
  email: string,
  windowSeconds: number,
  lockAfter: number,
  lockSeconds: number,
): Promise<LoginThrottleRow> {
  const [row] = await sql<LoginThrottleRow[]>`
    INSERT INTO login_throttle (email, failures, last_failure) VALUES (${email}, 1, now())
    ON CONFLICT (email) DO UPDATE SET
      failures = CASE WHEN login_throttle.last_failure < now() - make_interval(secs => ${windowSeconds})
                      THEN 1 ELSE login_throttle.failures + 1 END,
      last_failure = now()
    RETURNING *`;
  if (row!.failures >= lockAfter) {
    const [locked] = await sql<LoginThrottleRow[]>`
      UPDATE login_throttle SET locked_until = now() + make_interval(secs => ${lockSeconds}) WHERE email = ${email} RETURNING *`;
    return locked!;
  }
  return row!;
}

export async function clearLoginFailures(sql: Queryable, email: string): Promise<void> {
  await sql`DELETE FROM login_throttle WHERE email = ${email}`;
}
