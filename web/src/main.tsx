// The console: a client of the server's public API, nothing more. Pages are
// chosen by path; those the email links open and the sign-in ones work
// without a session, every other one shows the sign-in form until there is one.
import type { ComponentChildren } from 'preact';
import { render } from 'preact';
import { get } from './api';
import { Link } from './components';
import { useResource } from './hooks';
import { loadServerTiles } from './map-view';
import { MeContext } from './me';
import { AcceptInvite, ForgotPassword, SetPassword, SignIn, SignUp, VerifyEmail } from './pages/auth';
import { Channels } from './pages/channels';
import { ApiKeys } from './pages/keys';
import { Landmarks } from './pages/landmarks';
import { DeviceDetail, Devices } from './pages/devices';
import { Events } from './pages/events';
import { Projects } from './pages/lists';
import { Rules } from './pages/rules';
import { Models } from './pages/models';
import { Predict } from './pages/predict';
import { Settings } from './pages/settings';
import { match, useLocation } from './router';
import { signOut, useSessionToken } from './session';
import type { Data, Me } from './types';
import './style.css';

type Page = (params: Record<string, string>) => ComponentChildren;

const PUBLIC: Record<string, Page> = {
  '/sign-in': () => <SignIn />,
  '/sign-up': () => <SignUp />,
  '/forgot-password': () => <ForgotPassword />,
  '/verify-email': () => <VerifyEmail />,
  '/accept-invite': () => <AcceptInvite />,
  '/set-password': () => <SetPassword />,
};

const PRIVATE: Record<string, Page> = {
  '/models': () => <Models />,
  '/models/:version/predict': ({ version }) => <Predict versionId={version!} />,
  '/settings/api-keys': () => <ApiKeys />,
  '/channels': () => <Channels />,
  '/projects': () => <Projects />,
  '/landmarks': () => <Landmarks />,
  '/rules': () => <Rules />,
  '/devices': () => <Devices />,
  '/devices/:device': ({ device }) => <DeviceDetail key={device} deviceId={device!} />,
  // keyed by the query: a link to ?deviceId= (a device's page) follows that device afresh
  '/events': () => <Events key={location.search} />,
  '/settings': () => <Settings />,
};

/** The navigation, named as in the platform's dashboard (docs/CONTRACT.md#console-names); "API keys" only for the roles that manage them. */
const NAV: Array<{ href: string; label: string; managers?: true }> = [
  { href: '/models', label: 'Models' },
  { href: '/settings/api-keys', label: 'API keys', managers: true },
  { href: '/channels', label: 'Channels' },
  { href: '/projects', label: 'Projects' },
  { href: '/landmarks', label: 'Landmarks' },
  { href: '/rules', label: 'Rules' },
  { href: '/devices', label: 'Devices' },
  { href: '/events', label: 'Events' },
  { href: '/settings', label: 'Settings' },
];

function route(table: Record<string, Page>, path: string): ComponentChildren | undefined {
  for (const [pattern, page] of Object.entries(table)) {
    const params = match(pattern, path);
    if (params) return page(params);
  }
  return undefined;
}

function Shell({ token, path, children }: { token: string; path: string; children: ComponentChildren }) {
  const me = useResource(async () => (await get<Data<Me>>('/v2/users/me')).data, token);
  const manager = me.data?.role === 'admin' || me.data?.role === 'project_manager';
  return (
    <MeContext.Provider value={me.data}>
      <header class="top">
        <strong class="brand">Sense</strong>
        <nav aria-label="Console">
          {NAV.filter((item) => !item.managers || manager).map((item) => (
            <Link
              key={item.href}
              href={item.href}
              class={
                path === item.href || (path.startsWith(`${item.href}/`) && item.href !== '/settings') ? 'active' : ''
              }
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <a href="/docs" class="docs-link">
          API reference
        </a>
        <button type="button" class="quiet" onClick={signOut}>
          Sign out
        </button>
      </header>
      {/* pages wait for the role, so that they never flash controls the role cannot use */}
      <main class="page" data-signed-in={me.data?.email}>
        {me.data ? children : <p class="muted">{me.error ?? 'Loading…'}</p>}
      </main>
    </MeContext.Provider>
  );
}

function App() {
  const url = useLocation();
  const token = useSessionToken();
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '') {
    // the console's home is the Models page
    path = '/models';
    history.replaceState(null, '', path + url.search);
  }
  const open = route(PUBLIC, path);
  if (open) return <>{open}</>;
  if (!token) return <SignIn />;
  return (
    <Shell token={token} path={path}>
      {route(PRIVATE, path) ?? (
        <>
          <h1>Not found</h1>
          <p>
            No page at {path}. <Link href="/models">Models</Link>
          </p>
        </>
      )}
    </Shell>
  );
}

// The maps' tile source is the one setting read before the first page.
void loadServerTiles().then(() => render(<App />, document.getElementById('app')!));
