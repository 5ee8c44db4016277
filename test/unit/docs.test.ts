// The roles table of docs/API.md says what the code enforces, and its sample
// of a camera's vision profile is one the route accepts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devicesEndpoints } from '../../src/http/routes/v2/devices.js';
import { POLICY, ROLES, type Action } from '../../src/platform/permissions.js';

describe('docs/API.md', () => {
  it('documents every action with the roles the code allows', () => {
    const text = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');
    const table = text.slice(text.indexOf('## Roles'), text.indexOf('## Resources'));
    const rows = table
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| action') && !l.startsWith('|---'));
    const documented = new Map<string, string[]>();
    for (const row of rows) {
      const [actions, ...cells] = row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const roles = ROLES.filter((_, i) => cells[i] === '✓');
      for (const action of actions!.split(',').map((a) => a.trim())) documented.set(action, [...roles]);
    }
    for (const action of Object.keys(POLICY) as Action[]) {
      expect(documented.get(action), action).toEqual([...POLICY[action]]);
    }
    expect([...documented.keys()].sort()).toEqual(Object.keys(POLICY).sort());
  });
});

describe("docs/API.md's camera profile", () => {
  /** The body schema PUT /v2/devices/:device/vision validates with (declarations only: no service is called). */
  const route = devicesEndpoints({} as never).find(
    (e) => e.method === 'put' && e.path === '/v2/devices/:device/vision',
  );

  it('shows a vision profile with zones as JSON that the route accepts, zones as `polygon`s', () => {
    const text = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');
    const samples = [...text.matchAll(/^( *)```json\n([\s\S]*?)^\1```$/gm)].map((m) =>
      m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), ''),
    );
    const profiles = samples.filter((json) => json.includes('"zones"'));
    expect(profiles, 'a ```json block of API.md with "zones"').toHaveLength(1);
    expect(route?.body).toBeDefined();
    const parsed = route!.body!.safeParse(JSON.parse(profiles[0]!));
    expect(parsed.error?.issues ?? [], profiles[0]).toEqual([]);
    const zones = (parsed.data as { zones?: Array<{ name: string; polygon: unknown[] }> }).zones ?? [];
    expect(zones.length).toBeGreaterThan(0);
    for (const zone of zones) expect(zone.polygon.length).toBeGreaterThanOrEqual(3);
    // The landmarks' word is `points`; a zone says `polygon`, and the schema refuses the other.
    expect(
      route!.body!.safeParse({
        modelVersionId: 'v',
        zones: [
          {
            name: 'a',
            points: [
              [0, 0],
              [1, 0],
              [1, 1],
            ],
          },
        ],
      }).success,
    ).toBe(false);
  });
});
