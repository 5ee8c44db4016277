// Who is signed in and their role in the organization of their token: the
// console shows what the API lets that role do (src/platform/permissions.ts
// decides; the console only hides what would be refused).
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Me } from './types';

export const MeContext = createContext<Me | undefined>(undefined);

export function useMe(): Me | undefined {
  return useContext(MeContext);
}

/** Admins and project managers: keys, models:write, channels:write */
export function useIsManager(): boolean {
  const role = useMe()?.role;
  return role === 'admin' || role === 'project_manager';
}
