// Accounts: signup and email verification, login (with throttling), password
// reset, invitations, organizations and their members. Every email is
// written to the outbox in the transaction that causes it. Tokens sent by
// email are single-use, expire, and are stored only as SHA-256 digests.
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import {
  bumpSessionVersion,
  claimLoginAttempt,
  consumeAccountToken,
  deleteOrganization,
  findAccountToken,
  findMembershipRole,
  findOrganization,
  findUser,
  findUserByEmail,
  insertAccountToken,
  insertMembership,
  insertOrganization,
  insertUser,
  listMembers,
  listUserOrganizations,
  forgetLoginAttempts,
  refundLoginAttempt,
  renameOrganization,
  updateUser,
  type AccountTokenKind,
  type LoginAttempt,
  type ThrottlePolicy,
  type Role,
  type UserRow,
} from '../db/accounts.js';
import type { Queryable } from '../db/database.js';
import { DomainError, found, invalid, notFound } from '../errors.js';
import type { TokenService } from './auth/tokens.js';
import { enqueueEmail } from './outbox.js';
import type { Secrets } from './secrets.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { authorize } from './permissions.js';
import type { KeptFrames } from './kept-frames.js';
import { sha256 } from '../lib/sha256.js';

const HOUR = 3600_000;
const TOKEN_LIFETIME: Record<AccountTokenKind, number> = { verify: 48 * HOUR, reset: 1 * HOUR, invite: 7 * 24 * HOUR };

/** Failed logins per account: each one waits a little longer; the lockAfter-th locks the account for lockSeconds. */
const LOGIN_THROTTLE = { windowSeconds: 15 * 60, lockAfter: 5, lockSeconds: 60, delayMsPerFailure: 200 };
/** Login attempts per client address, whatever the account: one client guessing across many accounts. */
const ADDRESS_THROTTLE: ThrottlePolicy = { windowSeconds: 15 * 60, lockAfter: 30, lockSeconds: 5 * 60 };

const emailKey = (email: string) => `email:${email}`;
const addressKey = (address: string) => `address:${address}`;

/**
 * A new password for a user (a reset link, or `npm run admin -- reset-password`):
 * whoever knew the old one, or holds a token opened with it, is out, and the
 * account's failed logins are forgotten. Undefined if the user does not exist.
 */
export async function replacePassword(
  tx: Queryable,
  userId: string,
  password: string,
): Promise<{ user: UserRow; sessionVersion: number } | undefined> {
  const user = await updateUser(tx, userId, { passwordHash: await hashPassword(password), verifiedEmail: true });
  if (!user) return undefined;
  await forgetLoginAttempts(tx, emailKey(user.email));
  return { user, sessionVersion: (await bumpSessionVersion(tx, user.id))! };
}

function tooManyLogins(attempt: LoginAttempt & { admitted: false }, what: string): DomainError {
  const retryAfter = Math.max(1, Math.ceil((attempt.lockedUntil.getTime() - Date.now()) / 1000));
  return new DomainError('throttled', 'too many failed logins', `${what}; try again in ${retryAfter} s`, retryAfter);
}

/** The public view of a user, as the API returns it. */
export function presentUser(user: UserRow, role?: Role) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    verifiedEmail: user.verifiedEmail,
    inviteOutstanding: false,
    locale: user.locale,
    ...(role ? { role, permissions: { admin: role === 'admin' } } : {}),
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

/** The public view of an organization: with the caller's role in it when known. */
export function presentOrganization(o: {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  role?: Role | undefined;
}) {
  return {
    id: o.id,
    name: o.name,
    ...(o.role ? { permissions: { admin: o.role === 'admin' }, role: o.role } : {}),
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export interface AccountSettings {
  publicUrl: string;
}

export class AccountService {
  constructor(
    private readonly sql: Sql,
    private readonly tokens: TokenService,
    /** what outgoing email bodies are sealed with */
    private readonly secrets: Secrets,
    private readonly settings: AccountSettings,
    private readonly keptFrames: KeptFrames,
  ) {}

  private async issueToken(
    tx: Queryable,
    kind: AccountTokenKind,
    fields: { email: string; userId?: string; organizationId?: string; role?: Role; createdBy?: string },
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await insertAccountToken(tx, {
      id: newId(),
      kind,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + TOKEN_LIFETIME[kind]),
      ...fields,
    });
    return token;
  }

  private link(path: string, token: string): string {
    return `${this.settings.publicUrl}${path}?token=${token}`;
  }

  async signup(input: {
    email: string;
    password: string;
    name: string;
    organizationName: string;
    locale?: Record<string, unknown>;
  }): Promise<void> {
    const email = input.email.toLowerCase();
    await this.sql.begin(async (tx) => {
      if (await findUserByEmail(tx, email))
        throw new DomainError('conflict', 'user already exists', `an account for ${email} exists`);
      const user = await insertUser(tx, {
        id: newId(),
        email,
        name: input.name,
        passwordHash: await hashPassword(input.password),
        verifiedEmail: false,
      });
      if (input.locale) await updateUser(tx, user.id, { locale: input.locale });
      const org = await insertOrganization(tx, { id: newId(), name: input.organizationName });
      await insertMembership(tx, org.id, user.id, 'admin');
      const token = await this.issueToken(tx, 'verify', { email, userId: user.id });
      await enqueueEmail(tx, this.secrets, {
        kind: 'verify-email',
        to: email,
        organizationId: org.id,
        subject: 'Verify your email address',
        body: `Welcome, ${input.name}.\n\nConfirm your address: ${this.link('/verify-email', token)}\n\nOr POST {"token": "${token}"} to /v2/verify-email.\nThe link expires in 48 hours.\n`,
      });
    });
  }

  /** Marks the address verified and signs the user in. */
  async verifyEmail(token: string): Promise<string> {
    return this.sql.begin(async (tx) => {
      const row = await consumeAccountToken(tx, 'verify', sha256(token));
      if (!row?.userId)
        throw new DomainError('unauthenticated', 'invalid token', 'the verification token is unknown, used or expired');
      const user = await updateUser(tx, row.userId, { verifiedEmail: true });
      if (!user) throw new DomainError('conflict', 'user does not exist', 'the account of this token was deleted');
      const [first] = await listUserOrganizations(tx, user.id);
      return this.tokens.issue(user, first?.id);
    });
  }

  /**
   * Checks the password with throttling; returns an access token. Every
   * attempt is counted, per client address and per account, before the
   * password is checked, so simultaneous guesses cannot all pass a check
   * that none of them has recorded yet.
   */
  async login(emailInput: string, password: string, clientAddress: string, organizationId?: string): Promise<string> {
    const email = emailInput.toLowerCase();
    const byAddress = await claimLoginAttempt(this.sql, addressKey(clientAddress), ADDRESS_THROTTLE);
    if (!byAddress.admitted) throw tooManyLogins(byAddress, 'too many login attempts from this address');
    const byAccount = await claimLoginAttempt(this.sql, emailKey(email), LOGIN_THROTTLE);
    if (!byAccount.admitted) throw tooManyLogins(byAccount, 'this account is locked after failed logins');
    const user = await findUserByEmail(this.sql, email);
    if (!user || !(await verifyPassword(password, user.passwordHash))) {
      // Slow down guessing: each failure in the window answers a little later.
      const { lockAfter, delayMsPerFailure } = LOGIN_THROTTLE;
      await new Promise((r) => setTimeout(r, Math.min(byAccount.failures, lockAfter) * delayMsPerFailure));
      throw new DomainError('unauthenticated', 'Invalid authorization credentials', 'wrong email or password');
    }
    await forgetLoginAttempts(this.sql, emailKey(email));
    await refundLoginAttempt(this.sql, addressKey(clientAddress));
    if (!user.verifiedEmail)
      throw new DomainError(
        'forbidden',
        'you need to verify your email',
        'follow the link in the verification email first',
      );
    return this.tokens.issue(user, await this.organizationFor(user.id, organizationId));
  }

  /** The organization a token should carry: the requested one (if a member) or the user's first. */
  private async organizationFor(userId: string, requested?: string): Promise<string | undefined> {
    if (requested) {
      if (!(await findMembershipRole(this.sql, requested, userId))) {
        throw new DomainError('forbidden', 'forbidden', 'you have no access to this organization');
      }
      return requested;
    }
    return (await listUserOrganizations(this.sql, userId))[0]?.id;
  }

  async setOrganization(caller: { userId: string; sessionVersion: number }, organizationId: string): Promise<string> {
    return this.tokens.issue(
      { id: caller.userId, sessionVersion: caller.sessionVersion },
      await this.organizationFor(caller.userId, organizationId),
    );
  }

  /** Always succeeds from the caller's point of view: no way to probe which addresses exist. */
  async requestPassword(emailInput: string): Promise<void> {
    const email = emailInput.toLowerCase();
    await this.sql.begin(async (tx) => {
      const user = await findUserByEmail(tx, email);
      if (!user) return;
      const token = await this.issueToken(tx, 'reset', { email, userId: user.id });
      await enqueueEmail(tx, this.secrets, {
        kind: 'reset-password',
        to: email,
        subject: 'Reset your password',
        body: `Set a new password: ${this.link('/set-password', token)}\n\nOr POST {"token": "${token}", "password": "..."} to /v2/set-password.\nThe link expires in one hour. If you did not ask for it, ignore this email.\n`,
      });
    });
  }

  async setPassword(token: string, password: string): Promise<string> {
    return this.sql.begin(async (tx) => {
      const row = await consumeAccountToken(tx, 'reset', sha256(token));
      if (!row?.userId)
        throw new DomainError('unauthenticated', 'invalid token', 'the reset token is unknown, used or expired');
      const replaced = await replacePassword(tx, row.userId, password);
      if (!replaced) throw new DomainError('conflict', 'user does not exist', 'the account of this token was deleted');
      const { user, sessionVersion } = replaced;
      const [first] = await listUserOrganizations(tx, user.id);
      return this.tokens.issue({ id: user.id, sessionVersion }, first?.id);
    });
  }

  async invite(organizationId: string, invitedBy: string, emails: string[], role: Role): Promise<void> {
    await this.sql.begin(async (tx) => {
      const org = await findOrganization(tx, organizationId);
      if (!org) throw notFound('organization not found');
      for (const raw of new Set(emails.map((e) => e.toLowerCase()))) {
        const token = await this.issueToken(tx, 'invite', { email: raw, organizationId, role, createdBy: invitedBy });
        await enqueueEmail(tx, this.secrets, {
          kind: 'invitation',
          to: raw,
          organizationId,
          subject: `You are invited to ${org.name}`,
          body: `You are invited to join ${org.name} as ${role.replace('_', ' ')}.\n\nAccept: ${this.link('/accept-invite', token)}\n\nOr POST {"token": "${token}", "name": "...", "password": "..."} to /v2/accept-invite.\nThe invitation expires in 7 days.\n`,
        });
      }
    });
  }

  /** Joins the inviting organization, creating the account if the address has none. */
  async acceptInvite(input: {
    token: string;
    name: string;
    password: string;
    locale?: Record<string, unknown>;
  }): Promise<string> {
    return this.sql.begin(async (tx) => {
      const existing = await findAccountToken(tx, sha256(input.token));
      if (existing?.kind === 'invite' && existing.revokedAt)
        throw new DomainError('unauthenticated', 'invite revoked', 'this invitation was revoked');
      const invite = await consumeAccountToken(tx, 'invite', sha256(input.token));
      if (!invite)
        throw new DomainError('unauthenticated', 'invalid token', 'the invitation is unknown, used or expired');
      if (!invite.organizationId || !(await findOrganization(tx, invite.organizationId))) {
        throw invalid('organization not found', 'the inviting organization no longer exists');
      }
      let user = await findUserByEmail(tx, invite.email);
      if (user) {
        if (!(await verifyPassword(input.password, user.passwordHash))) {
          throw new DomainError(
            'unauthenticated',
            'Invalid authorization credentials',
            'this address has an account: give its password',
          );
        }
      } else {
        user = await insertUser(tx, {
          id: newId(),
          email: invite.email,
          name: input.name,
          passwordHash: await hashPassword(input.password),
          verifiedEmail: true, // they received the invitation at this address
        });
        if (input.locale) await updateUser(tx, user.id, { locale: input.locale });
      }
      if (!(await findMembershipRole(tx, invite.organizationId, user.id))) {
        await insertMembership(tx, invite.organizationId, user.id, invite.role ?? 'member');
      }
      return this.tokens.issue(user, invite.organizationId);
    });
  }

  async createOrganization(userId: string, name: string) {
    return this.sql.begin(async (tx) => {
      const org = await insertOrganization(tx, { id: newId(), name });
      await insertMembership(tx, org.id, userId, 'admin');
      return org;
    });
  }

  async user(userId: string): Promise<UserRow> {
    const user = await findUser(this.sql, userId);
    if (!user) throw new DomainError('unauthenticated', 'invalid token', 'the user of this token no longer exists');
    return user;
  }

  /** The user of a token, with their role in the token's organization when it names one. */
  async me(caller: {
    userId: string;
    organizationId?: string | undefined;
  }): Promise<{ user: UserRow; role?: Role | undefined }> {
    const user = await this.user(caller.userId);
    return {
      user,
      role: caller.organizationId
        ? await findMembershipRole(this.sql, caller.organizationId, caller.userId)
        : undefined,
    };
  }

  /**
   * A signed-in user's new password, the current one required (a stolen
   * token alone cannot take the account over). Wrong guesses count against
   * the account like failed logins. Every other session ends; the answer is
   * a token for this one, in the same organization.
   */
  async changePassword(
    caller: { userId: string; organizationId?: string | undefined },
    current: string,
    next: string,
  ): Promise<string> {
    const user = await this.user(caller.userId);
    const attempt = await claimLoginAttempt(this.sql, emailKey(user.email), LOGIN_THROTTLE);
    if (!attempt.admitted) throw tooManyLogins(attempt, 'this account is locked after failed password checks');
    if (!(await verifyPassword(current, user.passwordHash))) {
      throw new DomainError(
        'forbidden',
        'wrong password',
        'currentPassword is not the current password of this account',
      );
    }
    return this.sql.begin(async (tx) => {
      const replaced = await replacePassword(tx, user.id, next);
      if (!replaced) throw new DomainError('conflict', 'user does not exist', 'this account was deleted');
      return this.tokens.issue({ id: user.id, sessionVersion: replaced.sessionVersion }, caller.organizationId);
    });
  }

  /** Changes the user's own name or locale. */
  async changeMe(
    userId: string,
    changes: { name?: string | undefined; locale?: Record<string, unknown> | undefined },
  ): Promise<UserRow> {
    const user = await this.user(userId);
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (Object.keys(given).length === 0) return user;
    return (await updateUser(this.sql, userId, given)) ?? this.user(userId);
  }

  members(organizationId: string) {
    return listMembers(this.sql, organizationId);
  }

  organizationsOf(userId: string) {
    return listUserOrganizations(this.sql, userId);
  }

  async renameOrganization(userId: string, organizationId: string, name: string) {
    await this.requireRole(organizationId, userId, 'organization:update');
    return found(await renameOrganization(this.sql, organizationId, name), 'organization');
  }

  /** Deletes an organization and everything in it. */
  async deleteOrganization(userId: string, organizationId: string): Promise<void> {
    await this.requireRole(organizationId, userId, 'organization:delete');
    // Its kept frames' rows would go with it, but not their images in a bucket.
    await this.keptFrames.forgetOrganization(organizationId);
    await deleteOrganization(this.sql, organizationId);
  }

  /** Organization routes name their organization in the path: the caller's role there decides; a stranger finds none. */
  private async requireRole(
    organizationId: string,
    userId: string,
    action: 'organization:update' | 'organization:delete',
  ): Promise<void> {
    authorize(found(await findMembershipRole(this.sql, organizationId, userId), 'organization'), action);
  }
}
