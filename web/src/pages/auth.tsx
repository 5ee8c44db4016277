// The pages before sign-in, and those the emails link to: the server builds
// the links as PUBLIC_URL + /verify-email, /accept-invite and /set-password,
// each with ?token= (src/platform/accounts.ts). Each of those pages asks for
// a click or a form before it spends the one-time token, so a mail scanner
// that opens links does not use it up.
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction } from '../hooks';
import { navigate, useLocation } from '../router';
import { signIn } from '../session';
import type { Data } from '../types';

function Card({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main class="card">
      <h1>{title}</h1>
      {children}
    </main>
  );
}

function Field(props: {
  label: string;
  type?: 'text' | 'email' | 'password';
  name: string;
  autocomplete?: string;
  minLength?: number;
}) {
  return (
    <label>
      {props.label}
      {/* preact types each input type apart; this one input takes three */}
      <input
        {...({ type: props.type ?? 'text' } as InputHTMLAttributes<HTMLInputElement>)}
        name={props.name}
        autoComplete={props.autocomplete}
        minLength={props.minLength}
        required
      />
    </label>
  );
}

/** The named fields of a submitted form. */
function fields(event: Event): Record<string, string> {
  event.preventDefault();
  return Object.fromEntries(new FormData(event.currentTarget as HTMLFormElement)) as Record<string, string>;
}

/** Signs in with the token an account endpoint answered, then opens `to`. */
function enter(token: string, to = '/models') {
  signIn(token);
  navigate(to, { replace: true });
}

const useToken = () => useLocation().searchParams.get('token') ?? '';

export function SignIn() {
  const action = useAction();
  const url = useLocation();
  // Shown in place of a page that needs a session: back to it after signing in.
  const next = url.pathname === '/sign-in' ? '/models' : url.pathname + url.search;
  return (
    <Card title="Sign in">
      <form
        onSubmit={(e) => {
          const { email, password } = fields(e);
          void action.run(async () =>
            enter((await post<{ token: string }>('/v2/login', { email, password })).token, next),
          );
        }}
      >
        <Field label="Email" name="email" type="email" autocomplete="username" />
        <Field label="Password" name="password" type="password" autocomplete="current-password" />
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
      </form>
      <ErrorNote error={action.error} />
      <p>
        <Link href="/forgot-password">Forgot your password?</Link> · <Link href="/sign-up">Create an account</Link>
      </p>
    </Card>
  );
}

export function SignUp() {
  const action = useAction();
  const [sent, setSent] = useState('');
  return (
    <Card title="Create an account">
      {sent ? (
        <p role="status">We sent a verification link to {sent}. Follow it to finish.</p>
      ) : (
        <form
          onSubmit={(e) => {
            const { name, email, password, organizationName } = fields(e);
            void action.run(async () => {
              await post('/v2/signup', { name, email, password, organizationName });
              setSent(email!);
            });
          }}
        >
          <Field label="Your name" name="name" autocomplete="name" />
          <Field label="Email" name="email" type="email" autocomplete="username" />
          <Field
            label="Password (8 characters or more)"
            name="password"
            type="password"
            autocomplete="new-password"
            minLength={8}
          />
          <Field label="Organization" name="organizationName" autocomplete="organization" />
          <button type="submit" disabled={action.busy}>
            Create account
          </button>
        </form>
      )}
      <ErrorNote error={action.error} />
      <p>
        <Link href="/sign-in">Sign in</Link>
      </p>
    </Card>
  );
}

export function ForgotPassword() {
  const action = useAction();
  const [sent, setSent] = useState(false);
  return (
    <Card title="Reset your password">
      {sent ? (
        <p role="status">If an account has this address, a link to set a new password is on its way.</p>
      ) : (
        <form
          onSubmit={(e) => {
            const { email } = fields(e);
            void action.run(async () => {
              await post('/v2/request-password', { email });
              setSent(true);
            });
          }}
        >
          <Field label="Email" name="email" type="email" autocomplete="username" />
          <button type="submit" disabled={action.busy}>
            Send the link
          </button>
        </form>
      )}
      <ErrorNote error={action.error} />
    </Card>
  );
}

export function VerifyEmail() {
  const token = useToken();
  const action = useAction();
  return (
    <Card title="Verify your email address">
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          action.run(async () => enter((await post<{ token: string }>('/v2/verify-email', { token })).token))
        }
      >
        Verify and sign in
      </button>
      <ErrorNote error={action.error} />
    </Card>
  );
}

export function AcceptInvite() {
  const token = useToken();
  const action = useAction();
  return (
    <Card title="Accept the invitation">
      <p class="muted">
        New here? Choose your name and a password. Already have an account with this address? Give its password.
      </p>
      <form
        onSubmit={(e) => {
          const { name, password } = fields(e);
          void action.run(async () =>
            enter((await post<{ token: string }>('/v2/accept-invite', { token, name, password })).token),
          );
        }}
      >
        <Field label="Your name" name="name" autocomplete="name" />
        <Field
          label="Password (8 characters or more)"
          name="password"
          type="password"
          autocomplete="new-password"
          minLength={8}
        />
        <button type="submit" disabled={action.busy}>
          Join
        </button>
      </form>
      <ErrorNote error={action.error} />
    </Card>
  );
}

export function SetPassword() {
  const token = useToken();
  const action = useAction();
  return (
    <Card title="Set a new password">
      <form
        onSubmit={(e) => {
          const { password } = fields(e);
          // this one answer is enveloped ({data: {token}}), as on the platform (docs/CONTRACT.md#v2-auth)
          void action.run(async () =>
            enter((await post<Data<{ token: string }>>('/v2/set-password', { token, password })).data.token),
          );
        }}
      >
        <Field
          label="New password (8 characters or more)"
          name="password"
          type="password"
          autocomplete="new-password"
          minLength={8}
        />
        <button type="submit" disabled={action.busy}>
          Set password and sign in
        </button>
      </form>
      <ErrorNote error={action.error} />
    </Card>
  );
}
