// The signed-in user's access token (the JWT of POST /v2/login). Kept in
// sessionStorage: it survives a reload of the tab but not closing it, and
// other tabs do not share it. localStorage would keep a bearer token on the
// disk indefinitely; memory alone would sign the user out on every reload.
import { useEffect, useState } from 'preact/hooks';

const TOKEN = 'sense.token';
const listeners = new Set<() => void>();

export function sessionToken(): string | null {
  return sessionStorage.getItem(TOKEN);
}

export function signIn(token: string): void {
  sessionStorage.setItem(TOKEN, token);
  listeners.forEach((listener) => listener());
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN);
  listeners.forEach((listener) => listener());
}

/** The token; the component re-renders when the user signs in or out. */
export function useSessionToken(): string | null {
  const [token, setToken] = useState(sessionToken);
  useEffect(() => {
    const update = () => setToken(sessionToken());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return token;
}
