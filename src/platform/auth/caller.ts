// Who is calling a management endpoint, and what resolves it: declared by
// the platform (authenticator.ts implements it), used by http/api.ts.
import type { Role } from '../../db/accounts.js';

/** Who is calling: from a verified access token and the caller's membership. */
export interface Caller {
  userId: string;
  /** set for 'organization' endpoints; the token's organization otherwise, if any */
  organizationId: string;
  role: Role;
}

export interface UserCaller {
  userId: string;
  organizationId: string | undefined;
  /** the session version the token was issued under */
  sessionVersion: number;
}

/** Resolves the caller of a request; authenticator.ts (tokens + memberships). */
export interface Authenticator {
  user(authorization: string | undefined): Promise<UserCaller>;
  member(user: UserCaller): Promise<Caller>;
}
