// Rules: a builder for the condition tree (and/or groups of landmark,
// attribute and schedule conditions, groups within groups) and the actions,
// checked by the server as it is built (POST /v2/rules/validate-conditions,
// which also answers the expression string); the rules of a project, and
// each rule's delivery log.
import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import type { Data, Delivery, Rule as RuleResponse } from '../types';

type Trigger = 'enterLandmark' | 'exitLandmark' | 'insideLandmark' | 'outsideLandmark';
type Leaf =
  | { type: Trigger; ids: string[] }
  | { type: 'matchAttribute'; attribute: string; operator: string; value: string | number }
  | { type: 'schedule'; weekDays: number[]; timeOfDay: { from: number; to: number } }
  | Camera;
/**
 * What a camera sees (the builder's own node): how many detections of a
 * label, in a zone and above a score; optionally held for some seconds
 * (a `for` node) and firing once when it starts (a `becomes` node).
 */
interface Camera {
  type: 'camera';
  label: string;
  zone: string;
  minScore: number;
  operator: string;
  value: number;
  heldSeconds: number;
  once: boolean;
}
interface Group {
  type: 'and' | 'or';
  items: Condition[];
}
type Condition = Group | Leaf;
const isGroup = (c: Condition): c is Group => c.type === 'and' || c.type === 'or';
type Action = { type: 'webhook'; method: string; url: string } | { type: 'push'; subject: string; message: string };

/** The response's conditionsObject, which the schema leaves open (a node with a type), read as the nodes this builder makes. */
type Rule = Omit<RuleResponse, 'conditionsObject'> & { conditionsObject: Condition[] };

const TRIGGERS: Array<[Trigger, string]> = [
  ['enterLandmark', 'enters'],
  ['exitLandmark', 'exits'],
  ['insideLandmark', 'is inside'],
  ['outsideLandmark', 'is outside'],
];
const OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'contains'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** A new condition of a kind, with usable defaults. */
const LEAVES: Record<string, (landmarks: Array<{ id: string }>) => Condition> = {
  landmark: (landmarks) => ({ type: 'enterLandmark', ids: landmarks[0] ? [landmarks[0].id] : [] }),
  attribute: () => ({ type: 'matchAttribute', attribute: 'event.data.', operator: '>', value: 0 }),
  schedule: () => ({ type: 'schedule', weekDays: [1, 2, 3, 4, 5], timeOfDay: { from: 8 * 3600, to: 18 * 3600 } }),
  camera: () => ({ type: 'camera', label: 'traffic cone', zone: '', minScore: 0, operator: '>=', value: 1, heldSeconds: 0, once: true }),
  group: () => ({ type: 'or', items: [] }),
};

/** The builder's tree as the server takes it: a camera node becomes detections, wrapped in for and becomes as asked. */
function toServer(c: Condition): unknown {
  if (isGroup(c)) return { type: c.type, items: c.items.map(toServer) };
  if (c.type !== 'camera') return c;
  let node: unknown = {
    type: 'detections',
    label: c.label,
    ...(c.zone ? { zone: c.zone } : {}),
    ...(c.minScore > 0 ? { minScore: c.minScore } : {}),
    operator: c.operator,
    value: c.value,
  };
  if (c.heldSeconds > 0) node = { type: 'for', seconds: c.heldSeconds, items: [node] };
  if (c.once) node = { type: 'becomes', to: true, items: [node] };
  return node;
}

const clock = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
const seconds = (value: string) => {
  const [h, m] = value.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60;
};

/**
 * A rule's conditions in words, landmarks by name ("enters park or (is
 * inside depot and Mon–Fri 08:00–18:00)"): the expression string names
 * landmarks by id, and says a lone `true` for a rule without conditions.
 */
function describeConditions(conditions: Condition[], landmarkName: (id: string) => string): string {
  const leaf = (c: Leaf): string => {
    switch (c.type) {
      case 'matchAttribute':
        return `${c.attribute} ${c.operator} ${JSON.stringify(c.value)}`;
      case 'schedule':
        return `${c.weekDays.map((d) => DAYS[d]).join(', ')} ${clock(c.timeOfDay.from)}–${clock(c.timeOfDay.to)}`;
      case 'camera': // the builder's own node; rules come back as detections
        return describeOther({ ...c, type: 'detections' });
      default: {
        // Conditions this builder does not make (a camera's detections, as the server answers them) are named, not drawn.
        if (!Array.isArray(c.ids)) return describeOther(c as unknown as Record<string, unknown>);
        const verb = TRIGGERS.find(([t]) => t === c.type)?.[1] ?? c.type;
        return `${verb} ${c.ids.map(landmarkName).join(' or ') || '(no landmark)'}`;
      }
    }
  };
  const node = (c: Condition, nested: boolean): string => {
    // The nodes that remember, as the server answers them (the builder makes them from a camera node).
    const other = c as unknown as { type: string; seconds?: number; events?: number; to?: boolean; items?: Condition[] };
    if ((other.type === 'for' || other.type === 'becomes') && other.items?.[0]) {
      const inner = node(other.items[0], true);
      if (other.type === 'becomes') return `${inner} ${other.to ? 'starts' : 'stops'}`;
      return `${inner} for ${[other.seconds ? `${other.seconds} s` : '', other.events ? `${other.events} events` : ''].filter(Boolean).join(' and ')}`;
    }
    if (!isGroup(c)) return leaf(c);
    if (c.items.length === 0) return c.type === 'and' ? 'always' : 'never';
    const text = c.items.map((item) => node(item, true)).join(` ${c.type} `);
    return nested && c.items.length > 1 ? `(${text})` : text;
  };
  return conditions.length === 0 ? 'no conditions: every event of the project' : conditions.map((c) => node(c, false)).join(' and ');
}

/** A condition the builder does not make, in words: a camera's detections, or its type. */
function describeOther(c: Record<string, unknown>): string {
  if (c.type !== 'detections') return String(c.type);
  const where = [c.zone ? ` in ${String(c.zone)}` : '', c.minScore ? ` scoring ≥ ${String(c.minScore)}` : ''].join('');
  return `${String(c.label)} seen${where} ${String(c.operator)} ${String(c.value)}`;
}

export function Rules() {
  const projects = useResource(async () => (await get<Data<Array<{ id: string; name: string }>>>('/v2/projects')).data, 'projects');
  const [chosen, setChosen] = useState<string>();
  const projectId = chosen ?? projects.data?.[0]?.id;
  return (
    <>
      <h1>Rules</h1>
      <ErrorNote error={projects.error} />
      {projects.data?.length === 0 && (
        <p>
          Rules belong to a project: create one under <Link href="/projects">Projects</Link> first.
        </p>
      )}
      {projects.data && projectId && (
        <>
          <label>
            Project{' '}
            <select aria-label="Project" value={projectId} onChange={(e) => setChosen(e.currentTarget.value)}>
              {projects.data.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <ProjectRules key={projectId} projectId={projectId} />
        </>
      )}
    </>
  );
}

function ProjectRules({ projectId }: { projectId: string }) {
  const rules = useResource(async () => (await get<Data<Rule[]>>(`/v2/rules?projectId=${projectId}`)).data, projectId);
  const landmarks = useResource(async () => (await get<Data<Array<{ id: string; name: string }>>>(`/v2/projects/${projectId}/landmarks?count=1000`)).data, `landmarks ${projectId}`);
  const landmarkName = (id: string) => landmarks.data?.find((l) => l.id === id)?.name ?? id;
  const manager = useIsManager();
  const action = useAction();
  const [open, setOpen] = useState<string>();
  return (
    <>
      <ErrorNote error={action.error ?? rules.error} />
      {rules.data?.length === 0 && <p class="muted">No rules in this project yet.</p>}
      {rules.data?.map((rule) => (
        <section class="panel" key={rule.id} data-rule-name={rule.name}>
          <header>
            <h2>{rule.name}</h2>
            <span class="muted">{rule.actions.map((a) => a.type).join(', ') || 'no actions'}</span>
            <button type="button" class="quiet" onClick={() => setOpen(open === rule.id ? undefined : rule.id)}>
              {open === rule.id ? 'Hide deliveries' : 'Deliveries'}
            </button>
            {manager && (
              <button
                type="button"
                class="danger"
                onClick={() =>
                  confirm(`Delete rule ${rule.name}?`) &&
                  action.run(async () => {
                    await del(`/v2/rules/${rule.id}`);
                    rules.reload();
                  })
                }
              >
                Delete
              </button>
            )}
          </header>
          <p class="conditions" data-testid="rule-conditions">
            {describeConditions(rule.conditionsObject, landmarkName)}
          </p>
          {rule.conditionsObject.length > 0 && (
            <code class="expression" title="the expression string the API answers">
              {rule.conditions}
            </code>
          )}
          {open === rule.id && <Deliveries ruleId={rule.id} />}
        </section>
      ))}
      {manager && <RuleBuilder projectId={projectId} saved={rules.reload} />}
    </>
  );
}

function Deliveries({ ruleId }: { ruleId: string }) {
  const deliveries = useResource(async () => (await get<Data<Delivery[]>>(`/v2/rules/${ruleId}/deliveries`)).data, ruleId);
  if (deliveries.error) return <ErrorNote error={deliveries.error} />;
  if (deliveries.data?.length === 0) return <p class="muted">Nothing delivered yet.</p>;
  return (
    <table>
      <tbody>
        {deliveries.data?.map((d) => (
          <tr key={d.id}>
            <td>{new Date(d.createdAt).toLocaleString()}</td>
            <td>{d.type}</td>
            <td>{d.status}</td>
            <td>{d.attempts} attempt(s)</td>
            <td class="error">{d.lastError}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RuleBuilder({ projectId, saved }: { projectId: string; saved: () => void }) {
  const landmarks = useResource(async () => (await get<Data<Array<{ id: string; name: string }>>>(`/v2/projects/${projectId}/landmarks`)).data, projectId);
  const [name, setName] = useState('');
  const [tree, setTree] = useState<Group>({ type: 'and', items: [] });
  const [actions, setActions] = useState<Action[]>([]);
  const [check, setCheck] = useState<{ conditions?: string; error?: string }>({});
  const action = useAction();

  // The server checks the tree as it is built; the last answer wins.
  useEffect(() => {
    let live = true;
    post<Data<{ conditions: string }>>('/v2/rules/validate-conditions', { projectId, conditionsObject: toServer(tree) }).then(
      ({ data }) => live && setCheck({ conditions: data.conditions }),
      (failure: Error) => live && setCheck({ error: failure.message }),
    );
    return () => {
      live = false;
    };
  }, [tree, projectId]);

  return (
    <section class="panel builder">
      <h2>New rule</h2>
      <input aria-label="Rule name" placeholder="Rule name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <h3>When</h3>
      <GroupEditor group={tree} change={setTree} landmarks={landmarks.data ?? []} />
      <p class="check" data-testid="rule-check">
        {check.error ? <span class="error">{check.error}</span> : <code>{check.conditions}</code>}
      </p>
      <h3>Then</h3>
      {actions.map((a, i) => (
        <div class="row" key={i}>
          {a.type === 'webhook' ? (
            <>
              <select aria-label="Webhook method" value={a.method} onChange={(e) => setActions(actions.with(i, { ...a, method: e.currentTarget.value }))}>
                {['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
              <input aria-label="Webhook URL" placeholder="https://…" size={40} value={a.url} onInput={(e) => setActions(actions.with(i, { ...a, url: e.currentTarget.value }))} />
            </>
          ) : (
            <>
              <input aria-label="Push subject" placeholder="Subject" value={a.subject} onInput={(e) => setActions(actions.with(i, { ...a, subject: e.currentTarget.value }))} />
              <input aria-label="Push message" placeholder="Message" size={40} value={a.message} onInput={(e) => setActions(actions.with(i, { ...a, message: e.currentTarget.value }))} />
            </>
          )}
          <button type="button" class="quiet" onClick={() => setActions(actions.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <div class="row">
        <button type="button" class="quiet" onClick={() => setActions([...actions, { type: 'webhook', method: 'POST', url: '' }])}>
          + Webhook
        </button>
        <button type="button" class="quiet" onClick={() => setActions([...actions, { type: 'push', subject: '', message: '' }])}>
          + Push notification
        </button>
      </div>
      <p>
        <button
          type="button"
          disabled={!name || check.error !== undefined || action.busy}
          onClick={() =>
            action.run(async () => {
              await post('/v2/rules', { projectId, name, conditionsObject: toServer(tree), actions });
              setName('');
              setTree({ type: 'and', items: [] });
              setActions([]);
              saved();
            })
          }
        >
          Save rule
        </button>
      </p>
      <ErrorNote error={action.error} />
    </section>
  );
}

function GroupEditor({ group, change, landmarks }: { group: Group; change: (g: Group) => void; landmarks: Array<{ id: string; name: string }> }) {
  const set = (i: number, item: Condition) => change({ ...group, items: group.items.with(i, item) });
  return (
    <div class="group">
      <select aria-label="Combine with" value={group.type} onChange={(e) => change({ ...group, type: e.currentTarget.value as Group['type'] })}>
        <option value="and">all of</option>
        <option value="or">any of</option>
      </select>
      {group.items.map((item, i) => (
        <div class="row" key={i}>
          {isGroup(item) ? (
            <GroupEditor group={item} change={(g) => set(i, g)} landmarks={landmarks} />
          ) : (
            <LeafEditor leaf={item} change={(l) => set(i, l)} landmarks={landmarks} />
          )}
          <button type="button" class="quiet" onClick={() => change({ ...group, items: group.items.filter((_, j) => j !== i) })}>
            Remove
          </button>
        </div>
      ))}
      <select
        aria-label="Add a condition"
        value=""
        onChange={(e) => {
          const make = LEAVES[e.currentTarget.value];
          if (make) change({ ...group, items: [...group.items, make(landmarks)] });
          e.currentTarget.value = '';
        }}
      >
        <option value="">+ condition…</option>
        <option value="landmark">landmark</option>
        <option value="attribute">attribute</option>
        <option value="schedule">schedule</option>
        <option value="camera">camera detections</option>
        <option value="group">group (all of / any of)</option>
      </select>
    </div>
  );
}

function LeafEditor({ leaf, change, landmarks }: { leaf: Leaf; change: (l: Leaf) => void; landmarks: Array<{ id: string; name: string }> }) {
  if (leaf.type === 'camera') {
    const number = (value: string, fallback: number) => (value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : fallback);
    return (
      <span>
        a camera sees <input aria-label="Label" size={12} value={leaf.label} onInput={(e) => change({ ...leaf, label: e.currentTarget.value })} /> in zone{' '}
        <input aria-label="Zone" size={10} placeholder="(whole image)" value={leaf.zone} onInput={(e) => change({ ...leaf, zone: e.currentTarget.value })} /> scoring ≥{' '}
        <input aria-label="Minimum score" type="number" min={0} max={1} step={0.05} value={leaf.minScore} onInput={(e) => change({ ...leaf, minScore: number(e.currentTarget.value, 0) })} />,
        count{' '}
        <select aria-label="Count operator" value={leaf.operator} onChange={(e) => change({ ...leaf, operator: e.currentTarget.value })}>
          {OPERATORS.filter((o) => o !== 'contains').map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>{' '}
        <input aria-label="Count" type="number" min={0} value={leaf.value} onInput={(e) => change({ ...leaf, value: number(e.currentTarget.value, 0) })} />, for at least{' '}
        <input aria-label="Held for seconds" type="number" min={0} value={leaf.heldSeconds} onInput={(e) => change({ ...leaf, heldSeconds: number(e.currentTarget.value, 0) })} /> s{' '}
        <label>
          <input type="checkbox" aria-label="Once when it starts" checked={leaf.once} onChange={(e) => change({ ...leaf, once: e.currentTarget.checked })} /> once when it starts
        </label>
      </span>
    );
  }
  if (leaf.type === 'matchAttribute') {
    return (
      <span>
        <input aria-label="Attribute" value={leaf.attribute} onInput={(e) => change({ ...leaf, attribute: e.currentTarget.value })} />
        <select aria-label="Operator" value={leaf.operator} onChange={(e) => change({ ...leaf, operator: e.currentTarget.value })}>
          {OPERATORS.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
        <input
          aria-label="Value"
          value={String(leaf.value)}
          // a number when it reads as one, so that < and > compare numbers
          onInput={(e) => change({ ...leaf, value: e.currentTarget.value.trim() !== '' && !Number.isNaN(Number(e.currentTarget.value)) ? Number(e.currentTarget.value) : e.currentTarget.value })}
        />
      </span>
    );
  }
  if (leaf.type === 'schedule') {
    return (
      <span>
        {DAYS.map((day, n) => (
          <label key={day} class="day">
            <input
              type="checkbox"
              checked={leaf.weekDays.includes(n)}
              onChange={(e) => change({ ...leaf, weekDays: e.currentTarget.checked ? [...leaf.weekDays, n].sort() : leaf.weekDays.filter((d) => d !== n) })}
            />
            {day}
          </label>
        ))}{' '}
        from <input type="time" aria-label="From" value={clock(leaf.timeOfDay.from)} onChange={(e) => change({ ...leaf, timeOfDay: { ...leaf.timeOfDay, from: seconds(e.currentTarget.value) } })} /> to{' '}
        <input type="time" aria-label="To" value={clock(leaf.timeOfDay.to)} onChange={(e) => change({ ...leaf, timeOfDay: { ...leaf.timeOfDay, to: seconds(e.currentTarget.value) } })} />
      </span>
    );
  }
  return (
    <span>
      the device{' '}
      <select aria-label="Landmark trigger" value={leaf.type} onChange={(e) => change({ ...leaf, type: e.currentTarget.value as Trigger })}>
        {TRIGGERS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>{' '}
      <select aria-label="Landmark" value={leaf.ids[0] ?? ''} onChange={(e) => change({ ...leaf, ids: [e.currentTarget.value] })}>
        {/* a leaf made before the project's landmarks arrived names none: say so rather than show the first as chosen */}
        {leaf.ids.length === 0 && <option value="">{landmarks.length === 0 ? '(no landmarks in this project)' : '(choose a landmark)'}</option>}
        {landmarks.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </span>
  );
}
