// Settings: who is signed in, their password, the organization the session
// works in (a user may belong to several), inviting people (admins),
// signing out.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager, useMe } from '../me';
import { signIn, signOut, sessionToken } from '../session';
import type { Data, Organization } from '../types';

const ROLES = ['member', 'project_manager', 'admin'];

/** The organization a token is bound to: its claims are readable without the key (the server verifies them). */
function tokenOrganization(): string | undefined {
  const payload = sessionToken()?.split('.')[1];
  if (!payload) return undefined;
  return (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { organizationId?: string })
    .organizationId;
}

export function Settings() {
  const me = useMe();
  const manager = useIsManager();
  const organizations = useResource(
    async () => (await get<Data<Organization[]>>('/v2/organizations')).data,
    'organizations',
  );
  const switching = useAction();
  const inviting = useAction();
  const changing = useAction();
  const [changed, setChanged] = useState(false);
  const current = tokenOrganization();
  return (
    <>
      <h1>Settings</h1>
      <section class="panel">
        <h2>Account</h2>
        <p>
          {me?.name} · {me?.email} · <span data-testid="role">{me?.role?.replace('_', ' ') ?? 'no organization'}</span>
        </p>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </section>
      <section class="panel">
        <h2>Password</h2>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const { currentPassword, newPassword } = Object.fromEntries(new FormData(form)) as Record<string, string>;
            setChanged(false);
            void changing.run(async () => {
              // Every other session ends; this one goes on with the token the answer carries.
              signIn(
                (await post<Data<{ token: string }>>('/v2/users/me/password', { currentPassword, newPassword })).data
                  .token,
              );
              form.reset();
              setChanged(true);
            });
          }}
        >
          <input
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            aria-label="Current password"
            placeholder="Current password"
            required
          />
          <input
            name="newPassword"
            type="password"
            autoComplete="new-password"
            aria-label="New password"
            placeholder="New password (8 characters or more)"
            minLength={8}
            required
          />
          <button type="submit" disabled={changing.busy}>
            Change password
          </button>
        </form>
        <ErrorNote error={changing.error} />
        {changed && <p role="status">Password changed. Your other sessions are signed out.</p>}
      </section>
      <section class="panel">
        <h2>Organization</h2>
        <ErrorNote error={organizations.error ?? switching.error} />
        <select
          aria-label="Organization"
          value={current}
          onChange={(e) => {
            const organizationId = e.currentTarget.value;
            void switching.run(async () =>
              signIn((await post<{ token: string }>('/v2/set-organization', { organizationId })).token),
            );
          }}
        >
          {organizations.data?.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </section>
      {manager && (
        <section class="panel">
          <h2>API keys</h2>
          <p>
            Inference API keys are under <Link href="/settings/api-keys">API keys</Link>; the keys of device channels
            under <Link href="/channels">Channels</Link>.
          </p>
        </section>
      )}
      {me?.role === 'admin' && (
        <section class="panel">
          <h2>Invite people</h2>
          <form
            class="inline"
            onSubmit={(e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const { email, role } = Object.fromEntries(new FormData(form)) as Record<string, string>;
              void inviting.run(async () => {
                await post('/v2/users/invite', { emails: [email], role });
                form.reset();
              });
            }}
          >
            <input name="email" type="email" placeholder="Email" aria-label="Email to invite" required />
            <select name="role" aria-label="Role">
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r.replace('_', ' ')}
                </option>
              ))}
            </select>
            <button type="submit" disabled={inviting.busy}>
              Invite
            </button>
          </form>
          <ErrorNote error={inviting.error} />
        </section>
      )}
    </>
  );
}
