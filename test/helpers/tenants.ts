// Two organizations for isolation checks, built the one way the end-to-end
// files share: A is the bootstrap admin's organization (with a read-only
// member when asked), B is signed up by its own admin, unrelated to A.
import { type Api, signUpTenant } from './api.js';
import { inviteMember, type Platform } from './platform.js';

interface Tenant {
  organizationId: string;
  /** the organization's admin, logged in */
  admin: Api;
}

export interface TwoTenants {
  /** the bootstrap admin's organization */
  a: Tenant & {
    /** a member (read-only role) of A; only when asked for (`member` not false) */
    member: Api;
  };
  /** a second organization, signed up by its own admin */
  b: Tenant;
}

export interface TwoTenantsOptions {
  /** the member of A's email, or false for no member (default member@example.com) */
  member?: string | false;
  /** the email B's admin signs up with (default other@example.com) */
  other?: string;
}

/** The organization an access token is scoped to (its organizationId claim). */
export function organizationOf(api: Api): string {
  return (JSON.parse(Buffer.from(api.token!.split('.')[1]!, 'base64url').toString()) as { organizationId: string })
    .organizationId;
}

/** A (the platform's admin, and a member of A) and B (a new organization with its own admin). */
export async function twoTenants(
  platform: Pick<Platform, 'anon' | 'admin' | 'sql'>,
  options: TwoTenantsOptions = {},
): Promise<TwoTenants> {
  const { member: memberEmail = 'member@example.com', other = 'other@example.com' } = options;
  const member = memberEmail === false ? undefined : await inviteMember(platform, memberEmail);
  const otherAdmin = await signUpTenant(platform.anon, platform.sql, other);
  return {
    a: {
      organizationId: organizationOf(platform.admin),
      admin: platform.admin,
      get member(): Api {
        if (!member) throw new Error('twoTenants: no member of A was asked for (member: false)');
        return member;
      },
    },
    b: { organizationId: organizationOf(otherAdmin), admin: otherAdmin },
  };
}
