// /v2 accounts, users and organizations (docs/CONTRACT.md#v2-auth).
import { z } from 'zod';
import { presentOrganization, presentUser, type AccountService } from '../../../platform/accounts.js';
import { ROLES } from '../../../platform/permissions.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id } from './common.js';
import { countMeta, list, one, organizationSchema, tokenResponse, userSchema } from './response-schemas.js';

const email = z.string().trim().toLowerCase().max(254).pipe(z.email());
const password = z.string().min(8, 'must be at least 8 characters').max(200);
const name = z.string().trim().min(1).max(64);
const locale = z.object({ timezone: z.string().max(64).optional() }).catchall(z.unknown());
const tokenBody = z.object({ token: z.string().min(1).max(512) }).strict();

export function accountEndpoints(accounts: AccountService): Endpoint[] {
  return [
    defineEndpoint({
      method: 'post',
      path: '/v2/signup',
      tag: 'accounts',
      summary: 'sign up: creates a user, an organization they administer, and sends a verification email',
      description:
        'Creates a user and an organization that the user administers, then emails a link to verify the address. Answers 204; an address already signed up is refused with 409.',
      auth: 'none',
      body: z
        .object({
          email,
          password,
          name,
          organizationName: z.string().trim().min(1).max(128),
          locale: locale.optional(),
        })
        .strict(),
      responses: { 204: { description: 'verification email queued' }, 409: { description: 'the user already exists' } },
      async handler({ body }) {
        await accounts.signup(body);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/verify-email',
      tag: 'accounts',
      summary: 'verify an email address with the token sent to it; returns an access token',
      description:
        'Marks the email address as verified with the token from the verification email, and answers an access token so the user is logged in at once.',
      auth: 'none',
      body: tokenBody,
      responses: { 200: { description: 'verified', schema: tokenResponse } },
      async handler({ body }) {
        return respond.bare({ token: await accounts.verifyEmail(body.token) });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/login',
      tag: 'accounts',
      summary: 'log in with email and password; returns {"token": "<JWT>"}',
      description:
        'Exchanges an email address and password for an access token (a JWT) to send as `Authorization: Bearer`. Wrong credentials answer 401, an address not yet verified 403, and too many failed logins 429.',
      auth: 'none',
      body: z.object({ email, password: z.string().min(1).max(200), organizationId: id.optional() }).strict(),
      responses: {
        200: { description: 'an access token', schema: tokenResponse },
        401: { description: 'Invalid authorization credentials' },
        403: { description: 'you need to verify your email' },
        429: { description: 'too many failed logins (Retry-After)' },
      },
      async handler({ body, request }) {
        return respond.bare({
          token: await accounts.login(body.email, body.password, request.clientAddress, body.organizationId),
        });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/request-password',
      tag: 'accounts',
      summary: 'send a password reset email (answers 204 whether or not the address exists)',
      description:
        'Emails a password reset link to the address if an account has it. The answer is 204 either way, so it does not tell whether an account exists.',
      auth: 'none',
      body: z.object({ email }).strict(),
      responses: { 204: { description: 'reset email queued (or no such user)' } },
      async handler({ body }) {
        await accounts.requestPassword(body.email);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/set-password',
      tag: 'accounts',
      summary: 'set a new password with a reset token',
      description:
        'Sets a new password with the token from a password reset email, and answers an access token for the account.',
      auth: 'none',
      body: z.object({ token: z.string().min(1).max(512), password }).strict(),
      responses: { 200: { description: 'password set', schema: one(tokenResponse) } },
      async handler({ body }) {
        return respond.data({ token: await accounts.setPassword(body.token, body.password) });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/set-organization',
      tag: 'accounts',
      summary: 'switch organization: a new access token bound to another of your organizations',
      description:
        'Answers a new access token bound to another organization the caller belongs to; the organization routes then act in that organization.',
      auth: 'user',
      body: z.object({ organizationId: id }).strict(),
      aliases: [{ method: 'post', path: '/v2/setOrganization' }],
      responses: { 200: { description: 'an access token bound to the organization', schema: tokenResponse } },
      async handler({ body, caller }) {
        return respond.bare({ token: await accounts.setOrganization(caller, body.organizationId) });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/accept-invite',
      tag: 'accounts',
      summary: 'accept an invitation: joins the organization (creating the account if needed)',
      description:
        'Accepts an invitation with the token from its email: the user joins the inviting organization, and an account is created for the address if it has none.',
      auth: 'none',
      body: z.object({ token: z.string().min(1).max(512), name, password, locale: locale.optional() }).strict(),
      responses: { 200: { description: 'an access token bound to the organization joined', schema: tokenResponse } },
      async handler({ body }) {
        return respond.bare({ token: await accounts.acceptInvite(body) });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/users/invite',
      tag: 'users',
      summary: 'invite people by email into the organization of the token',
      description:
        'Emails invitations to join the organization of the token, with one role for all of them (member by default); each invited person accepts with POST /v2/accept-invite.',
      auth: 'organization',
      action: 'users:invite',
      body: z
        .object({
          emails: z.array(email).min(1).max(100),
          role: z.enum(ROLES as ['admin', 'project_manager', 'member']).default('member'),
        })
        .strict(),
      aliases: [{ method: 'post', path: '/v2/invite' }],
      responses: { 204: { description: 'invitations queued' } },
      async handler({ body, caller }) {
        await accounts.invite(caller.organizationId, caller.userId, body.emails, body.role);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/users',
      tag: 'users',
      summary: 'list the members of the organization',
      description:
        'Lists the users who are members of the organization of the token, each with their role and whether their invitation is outstanding.',
      auth: 'organization',
      action: 'users:read',
      responses: { 200: { description: 'the members, with their role', schema: list(userSchema, countMeta) } },
      async handler({ caller }) {
        const members = await accounts.members(caller.organizationId);
        return respond.list(
          members.map((m) => presentUser(m, m.role)),
          { count: members.length },
        );
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/users/me',
      tag: 'users',
      summary: 'the authenticated user',
      description: 'Answers the user that the access token belongs to.',
      auth: 'user',
      responses: {
        200: { description: 'the user, with their role when the token names an organization', schema: one(userSchema) },
      },
      async handler({ caller }) {
        const { user, role } = await accounts.me(caller);
        return respond.data(presentUser(user, role));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/users/me',
      tag: 'users',
      summary: 'update your name or locale',
      description: 'Changes the name or the locale of the authenticated user; fields not given keep their value.',
      auth: 'user',
      body: z.object({ name: name.optional(), locale: locale.optional() }).strict(),
      aliases: [{ method: 'put', path: '/v2/users/me' }],
      responses: { 200: { description: 'the user', schema: one(userSchema) } },
      async handler({ caller, body }) {
        return respond.data(presentUser(await accounts.changeMe(caller.userId, body)));
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/users/me/password',
      tag: 'users',
      summary:
        'change your password: the current one required; every other session ends, and the answer is a token for this one',
      description:
        'Changes the password of the authenticated user, who must send the current one. Every other session of the user ends, and the answer is a new access token for this one.',
      auth: 'user',
      body: z.object({ currentPassword: z.string().min(1).max(200), newPassword: password }).strict(),
      responses: {
        200: { description: 'password changed: a new token for this session', schema: one(tokenResponse) },
        403: { description: 'currentPassword is wrong' },
        429: { description: 'too many wrong passwords for this account' },
      },
      async handler({ caller, body }) {
        return respond.data({ token: await accounts.changePassword(caller, body.currentPassword, body.newPassword) });
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/organizations',
      tag: 'organizations',
      summary: 'the organizations you belong to',
      description: "Lists the organizations the authenticated user is a member of, with the user's role in each.",
      auth: 'user',
      responses: {
        200: { description: 'the organizations, with your role in each', schema: list(organizationSchema, countMeta) },
      },
      async handler({ caller }) {
        const orgs = await accounts.organizationsOf(caller.userId);
        return respond.list(orgs.map(presentOrganization), { count: orgs.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/organizations',
      tag: 'organizations',
      summary: 'create an organization; you become its admin',
      description:
        'Creates an organization with the authenticated user as its admin. Switch to it with POST /v2/set-organization.',
      auth: 'user',
      body: z.object({ name: z.string().trim().min(1).max(128) }).strict(),
      responses: { 200: { description: 'the organization, with your role (admin)', schema: one(organizationSchema) } },
      async handler({ caller, body }) {
        return respond.data(
          presentOrganization({ ...(await accounts.createOrganization(caller.userId, body.name)), role: 'admin' }),
        );
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/organizations/:organization',
      tag: 'organizations',
      summary: 'rename an organization (admins)',
      description: 'Renames an organization; only its admins may.',
      auth: 'user',
      params: z.object({ organization: id }),
      body: z.object({ name: z.string().trim().min(1).max(128) }).strict(),
      responses: { 200: { description: 'the organization (without role)', schema: one(organizationSchema) } },
      async handler({ caller, params, body }) {
        return respond.data(
          presentOrganization(await accounts.renameOrganization(caller.userId, params.organization, body.name)),
        );
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/organizations/:organization',
      tag: 'organizations',
      summary: 'delete an organization and everything in it (admins)',
      description: 'Deletes an organization with everything in it; only its admins may.',
      auth: 'user',
      params: z.object({ organization: id }),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await accounts.deleteOrganization(caller.userId, params.organization);
        return respond.noContent();
      },
    }),
  ];
}
