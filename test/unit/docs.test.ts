// The roles table of docs/API.md says what the code enforces.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POLICY, ROLES, type Action } from '../../src/platform/permissions.js';

describe('docs/API.md', () => {
  it('documents every action with the roles the code allows', () => {
    const text = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');
    const table = text.slice(text.indexOf('## Roles'), text.indexOf('## Resources'));
    const rows = table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| action') && !l.startsWith('|---'));
    const documented = new Map<string, string[]>();
    for (const row of rows) {
      const [actions, ...cells] = row.split('|').slice(1, -1).map((c) => c.trim());
      const roles = ROLES.filter((_, i) => cells[i] === '✓');
      for (const action of actions!.split(',').map((a) => a.trim())) documented.set(action, [...roles]);
    }
    for (const action of Object.keys(POLICY) as Action[]) {
      expect(documented.get(action), action).toEqual([...POLICY[action]]);
    }
    expect([...documented.keys()].sort()).toEqual(Object.keys(POLICY).sort());
  });
});
