// Resolves the caller of a management request: the bearer access token, then
// the caller's role in the token's organization (looked up on every request,
// so removing a member takes effect at once) and the user's session version
// (so a password reset ends older sessions at once).
import type { Queryable } from '../../db/database.js';
import { findMembershipRole, findSessionVersion } from '../../db/accounts.js';
import { DomainError } from '../../errors.js';
import type { Authenticator, Caller, UserCaller } from './caller.js';
import type { TokenService } from './tokens.js';

export function bearer(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export function createAuthenticator(sql: Queryable, tokens: TokenService): Authenticator {
  return {
    async user(authorization) {
      if (!authorization)
        throw new DomainError('unauthenticated', 'authentication required', 'missing Authorization header');
      const token = bearer(authorization);
      if (!token)
        throw new DomainError(
          'unauthenticated',
          'authentication required',
          'the Authorization header must be "Bearer <token>"',
        );
      const claims = await tokens.verify(token);
      // Checked on every request, like the role below: a new password ends
      // the sessions opened with the old one at once.
      const current = await findSessionVersion(sql, claims.userId);
      if (current === undefined)
        throw new DomainError('unauthenticated', 'invalid token', 'the user of this token no longer exists');
      if (current !== claims.sessionVersion)
        throw new DomainError(
          'unauthenticated',
          'invalid token',
          'this session ended when the password was changed; log in again',
        );
      return claims;
    },
    async member(user: UserCaller): Promise<Caller> {
      if (!user.organizationId) {
        throw new DomainError(
          'forbidden',
          'organization required',
          'this token is not bound to an organization; call POST /v2/set-organization',
        );
      }
      const role = await findMembershipRole(sql, user.organizationId, user.userId);
      if (!role) throw new DomainError('forbidden', 'forbidden', 'you have no access to this organization');
      return { userId: user.userId, organizationId: user.organizationId, role };
    },
  };
}
