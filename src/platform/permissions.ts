// Who may do what, in one table. Every management endpoint names its action;
// the API layer checks it against the caller's role in the organization of
// their token before the handler runs. docs/API.md shows the same table.
import { DomainError } from '../errors.js';
import type { Role } from '../db/accounts.js';

export const ROLES: readonly Role[] = ['admin', 'project_manager', 'member'];

const ALL: readonly Role[] = ROLES;
const MANAGERS: readonly Role[] = ['admin', 'project_manager'];
const ADMINS: readonly Role[] = ['admin'];

export const POLICY = {
  'organization:update': ADMINS,
  'organization:delete': ADMINS,
  'users:read': ALL,
  'users:invite': ADMINS,
  'channels:read': ALL,
  'channels:write': MANAGERS,
  'channelKeys:read': MANAGERS,
  'channelKeys:write': MANAGERS,
  'schemas:read': ALL,
  'schemas:write': MANAGERS,
  'projects:read': ALL,
  'projects:write': MANAGERS,
  'devices:read': ALL,
  'devices:write': MANAGERS,
  'landmarks:read': ALL,
  'landmarks:write': MANAGERS,
  'rules:read': ALL,
  'rules:write': MANAGERS,
  'events:read': ALL,
  'gateways:read': ALL,
  'gateways:write': MANAGERS,
  'inferenceKeys:read': MANAGERS,
  'inferenceKeys:write': MANAGERS,
  'models:read': ALL,
  'models:write': MANAGERS,
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof POLICY;

function may(role: Role, action: Action): boolean {
  return (POLICY[action] as readonly Role[]).includes(role);
}

export function authorize(role: Role, action: Action): void {
  if (!may(role, action)) {
    throw new DomainError(
      'forbidden',
      'forbidden',
      `the ${role.replace('_', ' ')} role may not ${action.replace(':', ' ')}`,
    );
  }
}
