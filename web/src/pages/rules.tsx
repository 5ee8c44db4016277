// Rules: a builder for the condition tree (and/or groups of landmark,
// attribute, schedule, camera detections and camera object conditions,
// groups within groups) and the actions,
// checked by the server as it is built (POST /v2/rules/validate-conditions,
// which also answers the expression string and warnings); the rules of a
// project, enabled, disabled and edited in the same builder; and each rule's
// delivery log, attempt by attempt, linked to the event that fired it.
import { useEffect, useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import type { Data, Delivery, Rule as RuleResponse } from '../types';

type Trigger = 'enterLandmark' | 'exitLandmark' | 'insideLandmark' | 'outsideLandmark';
type Leaf =
  | { type: Trigger; ids: string[] }
  | { type: 'matchAttribute'; attribute: string; operator: string; value: string | number }
  | { type: 'schedule'; weekDays: number[]; timeOfDay: { from: number; to: number } }
  | Camera
  | Objects;
/**
 * What a camera sees (the builder's own node): how many detections of a
 * label, with a child detection of a child label (a child stage's answer:
 * a circle whose colour is red; any when empty), in a zone and above a
 * score; optionally held for some seconds (a `for` node) and firing once
 * when it starts (a `becomes` node).
 */
interface Camera {
  type: 'camera';
  label: string;
  child: string;
  zone: string;
  minScore: number;
  operator: string;
  value: number;
  heldSeconds: number;
  once: boolean;
}
/** The object conditions of a streaming camera's object events (docs/API.md#object-conditions). */
type ObjectKind = 'entered' | 'crossed' | 'dwell' | 'inZone';
/**
 * What a streaming camera's tracked objects do (the builder's own node, one
 * for the four object conditions): `place` is the zone (the line for
 * `crossed`), an empty label or direction is any; `seconds` is a dwell's,
 * `operator` and `value` an inZone's.
 */
interface Objects {
  type: 'objects';
  kind: ObjectKind;
  place: string;
  label: string;
  direction: '' | 'in' | 'out';
  seconds: number;
  operator: string;
  value: number;
}
const OBJECT_KINDS: Array<[ObjectKind, string]> = [
  ['entered', 'enters a zone'],
  ['crossed', 'crosses a line'],
  ['dwell', 'stays in a zone'],
  ['inZone', 'objects in a zone'],
];
interface Group {
  type: 'and' | 'or';
  items: Condition[];
}
type Condition = Group | Leaf;
const isGroup = (c: Condition): c is Group => c.type === 'and' || c.type === 'or';
/**
 * An action as the builder edits it: a webhook's method and URL, a push's
 * subject and message, an MQTT command's message and QoS (an empty message:
 * the server's default); `rest` holds what the builder does not edit (a
 * webhook's headers, body, masked secrets; a command's expiry), and an
 * action of another type is kept whole.
 */
type Action =
  | { type: 'webhook'; method: string; url: string; rest?: Record<string, unknown> }
  | { type: 'push'; subject: string; message: string; rest?: Record<string, unknown> }
  | { type: 'mqtt'; message: string; qos: 0 | 1; rest?: Record<string, unknown> }
  | { type: 'other'; original: Record<string, unknown> };

/** A warning the server answers beside a rule or a check: a zone or label it does not know, a webhook it would refuse. */
interface Warning {
  code: string;
  message: string;
  field?: string;
  suggestions?: string[];
}

/** The zones, lines and labels the project's rules can name (GET /v2/projects/:project/rule-vocabulary). */
interface Vocabulary {
  zones: string[];
  lines: string[];
  labels: string[];
}

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

/** A new object condition: an object entering a zone, of any label (a dwell's 30 s, an inZone's >= 1 until changed). */
const newObjects = (): Objects => ({
  type: 'objects',
  kind: 'entered',
  place: '',
  label: '',
  direction: '',
  seconds: 30,
  operator: '>=',
  value: 1,
});

/** A new condition of a kind, with usable defaults. */
const LEAVES: Record<string, (landmarks: Array<{ id: string }>) => Condition> = {
  landmark: (landmarks) => ({ type: 'enterLandmark', ids: landmarks[0] ? [landmarks[0].id] : [] }),
  attribute: () => ({ type: 'matchAttribute', attribute: 'event.data.', operator: '>', value: 0 }),
  schedule: () => ({ type: 'schedule', weekDays: [1, 2, 3, 4, 5], timeOfDay: { from: 8 * 3600, to: 18 * 3600 } }),
  camera: () => ({
    type: 'camera',
    label: 'traffic cone',
    child: '',
    zone: '',
    minScore: 0,
    operator: '>=',
    value: 1,
    heldSeconds: 0,
    once: true,
  }),
  objects: () => newObjects(),
  group: () => ({ type: 'or', items: [] }),
};

/** An object node as the server takes it: the Gen B leaf of its kind, an empty label or direction left out (any). */
function objectToServer(c: Objects): Record<string, unknown> {
  const label = c.label.trim() === '' ? {} : { label: c.label.trim() };
  switch (c.kind) {
    case 'entered':
      return { type: 'entered', zone: c.place, ...label };
    case 'crossed':
      return { type: 'crossed', line: c.place, ...(c.direction && { direction: c.direction }), ...label };
    case 'dwell':
      return { type: 'dwell', zone: c.place, ...label, seconds: c.seconds };
    case 'inZone':
      return { type: 'inZone', zone: c.place, ...label, operator: c.operator, value: c.value };
  }
}

/** A saved object condition as the builder's node (undefined for one it cannot read). */
function objectFromServer(n: Record<string, unknown>): Objects | undefined {
  const kind = OBJECT_KINDS.find(([k]) => k === n.type)?.[0];
  const place = kind === 'crossed' ? n.line : n.zone;
  if (!kind || typeof place !== 'string') return undefined;
  if (n.label !== undefined && typeof n.label !== 'string') return undefined;
  if (kind === 'dwell' && typeof n.seconds !== 'number') return undefined;
  if (kind === 'inZone' && (typeof n.operator !== 'string' || typeof n.value !== 'number')) return undefined;
  return {
    ...newObjects(),
    kind,
    place,
    label: str(n.label),
    direction: n.direction === 'in' || n.direction === 'out' ? n.direction : '',
    ...(kind === 'dwell' && { seconds: num(n.seconds) }),
    ...(kind === 'inZone' && { operator: str(n.operator), value: num(n.value) }),
  };
}

/** The builder's tree as the server takes it: a camera node becomes detections, wrapped in for and becomes as asked. */
function toServer(c: Condition): unknown {
  if (isGroup(c)) return { type: c.type, items: c.items.map(toServer) };
  if (c.type === 'objects') return objectToServer(c);
  if (c.type !== 'camera') return c;
  let node: unknown = {
    type: 'detections',
    label: c.label,
    ...(c.zone ? { zone: c.zone } : {}),
    ...(c.minScore > 0 ? { minScore: c.minScore } : {}),
    ...(c.child.trim() !== '' ? { child: c.child.trim() } : {}),
    operator: c.operator,
    value: c.value,
  };
  if (c.heldSeconds > 0) node = { type: 'for', seconds: c.heldSeconds, items: [node] };
  if (c.once) node = { type: 'becomes', to: true, items: [node] };
  return node;
}

const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
const num = (v: unknown, fallback = 0) => (typeof v === 'number' ? v : fallback);

/**
 * A saved rule's condition as the builder's node, or undefined for one the
 * builder does not make (its conditions are then kept as they are).
 */
function fromServer(node: unknown): Condition | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const n = node as Record<string, unknown>;
  const items = Array.isArray(n.items) ? (n.items as unknown[]) : [];
  switch (n.type) {
    case 'and':
    case 'or': {
      const children = items.map(fromServer);
      return children.every((c) => c !== undefined) ? { type: n.type, items: children as Condition[] } : undefined;
    }
    case 'enterLandmark':
    case 'exitLandmark':
    case 'insideLandmark':
    case 'outsideLandmark':
      return Array.isArray(n.ids) ? ({ ...n, type: n.type, ids: n.ids.map(String) } as Leaf) : undefined;
    case 'matchAttribute':
      return typeof n.attribute === 'string' &&
        typeof n.operator === 'string' &&
        (typeof n.value === 'string' || typeof n.value === 'number')
        ? (n as unknown as Leaf)
        : undefined;
    case 'schedule': {
      const time = n.timeOfDay as { from?: unknown; to?: unknown } | undefined;
      return Array.isArray(n.weekDays) && typeof time?.from === 'number' && typeof time.to === 'number'
        ? (n as unknown as Leaf)
        : undefined;
    }
    case 'entered':
    case 'crossed':
    case 'dwell':
    case 'inZone':
      return objectFromServer(n);
    default:
      return cameraFromServer(n);
  }
}

/** A camera node from what toServer makes of it: detections, in for (seconds only), in becomes to true. */
function cameraFromServer(n: Record<string, unknown>): Camera | undefined {
  let node = n;
  const once = node.type === 'becomes' && node.to === true;
  if (once) node = ((node.items as unknown[] | undefined)?.[0] ?? {}) as Record<string, unknown>;
  let heldSeconds = 0;
  if (node.type === 'for') {
    if (node.events !== undefined || typeof node.seconds !== 'number') return undefined;
    heldSeconds = node.seconds;
    node = ((node.items as unknown[] | undefined)?.[0] ?? {}) as Record<string, unknown>;
  }
  if (node.type !== 'detections' || typeof node.label !== 'string' || typeof node.value !== 'number') return undefined;
  if (node.child !== undefined && typeof node.child !== 'string') return undefined;
  return {
    type: 'camera',
    label: node.label,
    child: str(node.child),
    zone: str(node.zone),
    minScore: num(node.minScore),
    operator: str(node.operator, '>='),
    value: node.value,
    heldSeconds,
    once,
  };
}

/** A saved rule's conditions as the builder's tree: its root group, or its one condition in an all-of group; undefined when the builder cannot edit them. */
function treeOf(conditions: unknown[]): Group | undefined {
  if (conditions.length === 0) return { type: 'and', items: [] };
  const root = fromServer(conditions[0]);
  if (!root) return undefined;
  return isGroup(root) ? root : { type: 'and', items: [root] };
}

/** A saved rule's actions as the builder edits them. */
function actionsOf(actions: Array<Record<string, unknown>>): Action[] {
  return actions.map((a) => {
    const { type, ...rest } = a;
    if (type === 'webhook' && typeof a.url === 'string') {
      const { method, url, ...others } = rest;
      return { type: 'webhook', method: str(method, 'POST'), url: String(url), rest: others };
    }
    if (type === 'push') {
      const { subject, message, ...others } = rest;
      return { type: 'push', subject: str(subject), message: str(message), rest: others };
    }
    if (type === 'mqtt') {
      const { message, qos, ...others } = rest;
      return { type: 'mqtt', message: str(message), qos: qos === 0 ? 0 : 1, rest: others };
    }
    return { type: 'other', original: a };
  });
}

/** The builder's actions as the server takes them. */
function actionsToServer(actions: Action[]): unknown[] {
  return actions.map((a) => {
    if (a.type === 'other') return a.original;
    if (a.type === 'mqtt') {
      const { rest, message, ...fields } = a;
      return { ...rest, ...fields, ...(message !== '' && { message }) };
    }
    const { rest, ...fields } = a;
    return { ...rest, ...fields };
  });
}

const clock = (seconds: number) =>
  `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
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
      case 'objects': // the builder's own node; rules come back as its Gen B leaf
        return describeOther(objectToServer(c));
      default: {
        // Conditions as the server answers them (a camera's detections, its objects' leaves) are named by describeOther.
        if (!Array.isArray(c.ids)) return describeOther(c as unknown as Record<string, unknown>);
        const verb = TRIGGERS.find(([t]) => t === c.type)?.[1] ?? c.type;
        return `${verb} ${c.ids.map(landmarkName).join(' or ') || '(no landmark)'}`;
      }
    }
  };
  const node = (c: Condition, nested: boolean): string => {
    // The nodes that remember, as the server answers them (the builder makes them from a camera node).
    const other = c as unknown as {
      type: string;
      seconds?: number;
      events?: number;
      to?: boolean;
      items?: Condition[];
    };
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
  return conditions.length === 0
    ? 'no conditions: every event of the project'
    : conditions.map((c) => node(c, false)).join(' and ');
}

/** A condition as the server answers it, in words: a camera's detections, its objects' conditions, or its type. */
function describeOther(c: Record<string, unknown>): string {
  const what = typeof c.label === 'string' && c.label !== '' ? `a ${c.label}` : 'an object';
  switch (c.type) {
    case 'entered':
      return `${what} enters ${String(c.zone)}`;
    case 'crossed':
      return `${what} crosses ${String(c.line)}${c.direction ? ` ${String(c.direction)}` : ''}`;
    case 'dwell':
      return `${what} stays in ${String(c.zone)} ${String(c.seconds)} s`;
    case 'inZone':
      return `${typeof c.label === 'string' && c.label !== '' ? `${c.label} objects` : 'objects'} in ${String(c.zone)} ${String(c.operator)} ${String(c.value)}`;
  }
  if (c.type !== 'detections') return String(c.type);
  const where = [c.zone ? ` in ${String(c.zone)}` : '', c.minScore ? ` scoring ≥ ${String(c.minScore)}` : ''].join('');
  const child = typeof c.child === 'string' && c.child !== '' ? ` with a child ${c.child}` : '';
  return `${String(c.label)}${child} seen${where} ${String(c.operator)} ${String(c.value)}`;
}

export function Rules() {
  const projects = useResource(
    async () => (await get<Data<Array<{ id: string; name: string }>>>('/v2/projects')).data,
    'projects',
  );
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
  const landmarks = useResource(
    async () =>
      (await get<Data<Array<{ id: string; name: string }>>>(`/v2/projects/${projectId}/landmarks?count=1000`)).data,
    `landmarks ${projectId}`,
  );
  const landmarkName = (id: string) => landmarks.data?.find((l) => l.id === id)?.name ?? id;
  const manager = useIsManager();
  const action = useAction();
  const [open, setOpen] = useState<string>();
  const [editing, setEditing] = useState<Rule>();
  /** What the server warned of when a rule was last saved. */
  const [saved, setSaved] = useState<{ name: string; warnings: Warning[] }>();
  return (
    <>
      <ErrorNote error={action.error ?? rules.error} />
      {rules.data?.length === 0 && <p class="muted">No rules in this project yet.</p>}
      {rules.data?.map((rule) => (
        <section class="panel" key={rule.id} data-rule-name={rule.name} data-rule-id={rule.id}>
          <header>
            <h2>{rule.name}</h2>
            <span class={`status ${rule.enabled ? 'active' : 'failed'}`}>{rule.enabled ? 'Enabled' : 'Disabled'}</span>
            <span class="muted">{rule.actions.map((a) => a.type).join(', ') || 'no actions'}</span>
            <button type="button" class="quiet" onClick={() => setOpen(open === rule.id ? undefined : rule.id)}>
              {open === rule.id ? 'Hide deliveries' : 'Deliveries'}
            </button>
            {manager && (
              <>
                <button
                  type="button"
                  class="quiet"
                  disabled={action.busy}
                  onClick={() =>
                    action.run(async () => {
                      await patch(`/v2/rules/${rule.id}`, { enabled: !rule.enabled });
                      rules.reload();
                    })
                  }
                >
                  {rule.enabled ? 'Disable' : 'Enable'}
                </button>
                <button type="button" class="quiet" onClick={() => setEditing(rule)}>
                  Edit
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    confirm(`Delete rule ${rule.name}?`) &&
                    action.run(async () => {
                      await del(`/v2/rules/${rule.id}`);
                      if (editing?.id === rule.id) setEditing(undefined);
                      rules.reload();
                    })
                  }
                >
                  Delete
                </button>
              </>
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
      {saved && saved.warnings.length > 0 && (
        <div class="warnings" role="status" data-testid="saved-warnings">
          <p>Rule {saved.name} saved, with warnings:</p>
          <Warnings warnings={saved.warnings} />
        </div>
      )}
      {manager && (
        <RuleBuilder
          key={editing?.id ?? 'new'}
          projectId={projectId}
          editing={editing}
          cancel={() => setEditing(undefined)}
          saved={(name, warnings) => {
            setSaved({ name, warnings });
            setEditing(undefined);
            rules.reload();
          }}
        />
      )}
    </>
  );
}

/** Warnings in a list: each message (which names the near matches the server suggests). */
function Warnings({ warnings }: { warnings: Warning[] }) {
  return (
    <ul class="warning-list" data-testid="rule-warnings">
      {warnings.map((w, i) => (
        <li key={i} data-warning={w.code} data-field={w.field}>
          {w.message}
        </li>
      ))}
    </ul>
  );
}

/** A fired action's link to the event that fired it, on the Events page. */
function EventLink({ eventId, deviceId }: { eventId: string; deviceId: string | null }) {
  return (
    <Link
      href={`/events?eventId=${encodeURIComponent(eventId)}${deviceId ? `&deviceId=${encodeURIComponent(deviceId)}` : ''}`}
    >
      <span class="visually-hidden">event </span>
      <code class="id">{eventId}</code>
    </Link>
  );
}

function Deliveries({ ruleId }: { ruleId: string }) {
  const deliveries = useResource(
    async () => (await get<Data<Delivery[]>>(`/v2/rules/${ruleId}/deliveries`)).data,
    ruleId,
  );
  if (deliveries.error) return <ErrorNote error={deliveries.error} />;
  if (deliveries.data?.length === 0) return <p class="muted">Nothing delivered yet.</p>;
  return (
    <table data-testid="deliveries">
      <thead>
        <tr>
          <th>Fired</th>
          <th>Action</th>
          <th>Status</th>
          <th>Attempts</th>
          <th>Event</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.data?.map((d) => (
          <tr key={d.id} data-delivery-id={d.id}>
            <td class="nowrap">{new Date(d.createdAt).toLocaleString()}</td>
            <td>{d.type}</td>
            <td>{d.status}</td>
            <td>
              {d.deliveries.length === 0 ? (
                <span class={d.lastError ? 'error' : 'muted'}>{d.lastError ?? `${d.attempts} attempt(s)`}</span>
              ) : (
                <ol class="attempts">
                  {d.deliveries.map((a) => (
                    <li key={a.attempt} data-testid="delivery-attempt" data-outcome={a.outcome}>
                      #{a.attempt}: {a.statusCode !== null ? <strong>HTTP {a.statusCode}</strong> : null}
                      {a.error && (a.statusCode === null || a.error !== `HTTP ${a.statusCode}`) ? (
                        <span class="error"> {a.error}</span>
                      ) : null}
                      <span class="muted">
                        {' '}
                        · {a.outcome} · {a.durationMs} ms · {new Date(a.startedAt).toLocaleTimeString()}
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </td>
            <td>{d.eventId ? <EventLink eventId={d.eventId} deviceId={d.deviceId} /> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RuleBuilder({
  projectId,
  editing,
  cancel,
  saved,
}: {
  projectId: string;
  /** the rule edited, or undefined for a new one */
  editing?: Rule | undefined;
  cancel: () => void;
  saved: (name: string, warnings: Warning[]) => void;
}) {
  const landmarks = useResource(
    async () => (await get<Data<Array<{ id: string; name: string }>>>(`/v2/projects/${projectId}/landmarks`)).data,
    projectId,
  );
  const vocabulary = useResource(
    async () => (await get<Data<Vocabulary>>(`/v2/projects/${projectId}/rule-vocabulary`)).data,
    `vocabulary ${projectId}`,
  );
  const [name, setName] = useState(editing?.name ?? '');
  // A rule whose conditions the builder does not make keeps them: its tree is not shown.
  const editable = editing ? treeOf(editing.conditionsObject) : { type: 'and' as const, items: [] };
  const [tree, setTree] = useState<Group>(editable ?? { type: 'and', items: [] });
  const [treeChanged, setTreeChanged] = useState(false);
  const [actions, setActions] = useState<Action[]>(
    editing ? actionsOf(editing.actions as Array<Record<string, unknown>>) : [],
  );
  // Actions are sent only once changed: a saved webhook's secrets come back masked.
  const [actionsChanged, setActionsChanged] = useState(false);
  const [check, setCheck] = useState<{ conditions?: string; error?: string; warnings?: Warning[] }>({});
  const action = useAction();
  const changeTree = (t: Group) => {
    setTree(t);
    setTreeChanged(true);
  };
  const changeActions = (list: Action[]) => {
    setActions(list);
    setActionsChanged(true);
  };

  // The server checks the tree as it is built; the last answer wins.
  useEffect(() => {
    if (!editable) return;
    let live = true;
    post<Data<{ conditions: string; warnings?: Warning[] }>>('/v2/rules/validate-conditions', {
      projectId,
      conditionsObject: toServer(tree),
    }).then(
      ({ data }) => live && setCheck({ conditions: data.conditions, warnings: data.warnings ?? [] }),
      (failure: Error) => live && setCheck({ error: failure.message }),
    );
    return () => {
      live = false;
    };
  }, [tree, projectId]);

  const title = editing ? `Edit rule ${editing.name}` : 'New rule';
  return (
    <section class="panel builder" aria-label={title}>
      <h2>{title}</h2>
      <datalist id="rule-labels">
        {vocabulary.data?.labels.map((l) => (
          <option key={l} value={l} />
        ))}
      </datalist>
      <datalist id="rule-zones">
        {vocabulary.data?.zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <datalist id="rule-lines">
        {vocabulary.data?.lines.map((l) => (
          <option key={l} value={l} />
        ))}
      </datalist>
      <input
        aria-label="Rule name"
        placeholder="Rule name"
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <h3>When</h3>
      {editable ? (
        <>
          <GroupEditor group={tree} change={changeTree} landmarks={landmarks.data ?? []} />
          <p class="check" data-testid="rule-check">
            {check.error ? <span class="error">{check.error}</span> : <code>{check.conditions}</code>}
          </p>
          {check.warnings && check.warnings.length > 0 && <Warnings warnings={check.warnings} />}
        </>
      ) : (
        <p class="muted" data-testid="rule-check">
          Its conditions are kept as they are (<code>{editing?.conditions}</code>): the builder does not make them.
        </p>
      )}
      <h3>Then</h3>
      {actions.map((a, i) => (
        <div class="row" key={i}>
          {a.type === 'webhook' ? (
            <>
              <select
                aria-label="Webhook method"
                value={a.method}
                onChange={(e) => changeActions(actions.with(i, { ...a, method: e.currentTarget.value }))}
              >
                {['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
              <input
                aria-label="Webhook URL"
                placeholder="https://…"
                size={40}
                value={a.url}
                onInput={(e) => changeActions(actions.with(i, { ...a, url: e.currentTarget.value }))}
              />
            </>
          ) : a.type === 'push' ? (
            <>
              <input
                aria-label="Push subject"
                placeholder="Subject"
                value={a.subject}
                onInput={(e) => changeActions(actions.with(i, { ...a, subject: e.currentTarget.value }))}
              />
              <input
                aria-label="Push message"
                placeholder="Message"
                size={40}
                value={a.message}
                onInput={(e) => changeActions(actions.with(i, { ...a, message: e.currentTarget.value }))}
              />
            </>
          ) : a.type === 'mqtt' ? (
            <>
              <input
                aria-label="Command message"
                placeholder="Message (default: the rule, device, event and landmarks as JSON)"
                size={40}
                value={a.message}
                onInput={(e) => changeActions(actions.with(i, { ...a, message: e.currentTarget.value }))}
              />
              <select
                aria-label="Command QoS"
                value={String(a.qos)}
                onChange={(e) => changeActions(actions.with(i, { ...a, qos: e.currentTarget.value === '0' ? 0 : 1 }))}
              >
                <option value="1">QoS 1: until the device acknowledges it</option>
                <option value="0">QoS 0: sent once</option>
              </select>
            </>
          ) : (
            <span class="muted">a {String(a.original.type)} action, kept as it is</span>
          )}
          <button type="button" class="quiet" onClick={() => changeActions(actions.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <div class="row">
        <button
          type="button"
          class="quiet"
          onClick={() => changeActions([...actions, { type: 'webhook', method: 'POST', url: '' }])}
        >
          + Webhook
        </button>
        <button
          type="button"
          class="quiet"
          onClick={() => changeActions([...actions, { type: 'push', subject: '', message: '' }])}
        >
          + Push notification
        </button>
        <button
          type="button"
          class="quiet"
          onClick={() => changeActions([...actions, { type: 'mqtt', message: '', qos: 1 }])}
        >
          + MQTT command
        </button>
      </div>
      <p class="row">
        <button
          type="button"
          disabled={!name || check.error !== undefined || action.busy}
          onClick={() =>
            action.run(async () => {
              const body = {
                name,
                ...(editable && (!editing || treeChanged) ? { conditionsObject: toServer(tree) } : {}),
                ...(!editing || actionsChanged ? { actions: actionsToServer(actions) } : {}),
              };
              const answer = editing
                ? await patch<Data<{ warnings?: Warning[] }>>(`/v2/rules/${editing.id}`, body)
                : await post<Data<{ warnings?: Warning[] }>>('/v2/rules', { projectId, ...body });
              if (!editing) {
                setName('');
                setTree({ type: 'and', items: [] });
                setActions([]);
              }
              saved(name, answer.data.warnings ?? []);
            })
          }
        >
          {editing ? 'Save changes' : 'Save rule'}
        </button>
        {editing && (
          <button type="button" class="quiet" onClick={cancel}>
            Cancel
          </button>
        )}
      </p>
      <ErrorNote error={action.error} />
    </section>
  );
}

function GroupEditor({
  group,
  change,
  landmarks,
}: {
  group: Group;
  change: (g: Group) => void;
  landmarks: Array<{ id: string; name: string }>;
}) {
  const set = (i: number, item: Condition) => change({ ...group, items: group.items.with(i, item) });
  return (
    <div class="group">
      <select
        aria-label="Combine with"
        value={group.type}
        onChange={(e) => change({ ...group, type: e.currentTarget.value as Group['type'] })}
      >
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
          <button
            type="button"
            class="quiet"
            onClick={() => change({ ...group, items: group.items.filter((_, j) => j !== i) })}
          >
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
        <option value="objects">camera objects</option>
        <option value="group">group (all of / any of)</option>
      </select>
    </div>
  );
}

function LeafEditor({
  leaf,
  change,
  landmarks,
}: {
  leaf: Leaf;
  change: (l: Leaf) => void;
  landmarks: Array<{ id: string; name: string }>;
}) {
  if (leaf.type === 'camera') {
    return (
      <span>
        a camera sees{' '}
        <input
          aria-label="Label"
          size={12}
          list="rule-labels"
          value={leaf.label}
          onInput={(e) => change({ ...leaf, label: e.currentTarget.value })}
        />{' '}
        with a child{' '}
        <input
          aria-label="Child label"
          title="a label of the child stage's version (red, for a circle whose colour is red): only the detections holding a child detection of it count; empty: not asked"
          size={10}
          list="rule-labels"
          placeholder="(not asked)"
          value={leaf.child}
          onInput={(e) => change({ ...leaf, child: e.currentTarget.value })}
        />{' '}
        in zone{' '}
        <input
          aria-label="Zone"
          size={10}
          list="rule-zones"
          placeholder="(whole image)"
          value={leaf.zone}
          onInput={(e) => change({ ...leaf, zone: e.currentTarget.value })}
        />{' '}
        scoring ≥{' '}
        <input
          aria-label="Minimum score"
          type="number"
          min={0}
          max={1}
          step={0.05}
          value={leaf.minScore}
          onInput={(e) => change({ ...leaf, minScore: number(e.currentTarget.value, 0) })}
        />
        , count <CountComparison of={leaf} change={(count) => change({ ...leaf, ...count })} />, for at least{' '}
        <input
          aria-label="Held for seconds"
          type="number"
          min={0}
          value={leaf.heldSeconds}
          onInput={(e) => change({ ...leaf, heldSeconds: number(e.currentTarget.value, 0) })}
        />{' '}
        s{' '}
        <label>
          <input
            type="checkbox"
            aria-label="Once when it starts"
            checked={leaf.once}
            onChange={(e) => change({ ...leaf, once: e.currentTarget.checked })}
          />{' '}
          once when it starts
        </label>
      </span>
    );
  }
  if (leaf.type === 'objects') return <ObjectsEditor leaf={leaf} change={change} />;
  if (leaf.type === 'matchAttribute') {
    return (
      <span>
        <input
          aria-label="Attribute"
          value={leaf.attribute}
          onInput={(e) => change({ ...leaf, attribute: e.currentTarget.value })}
        />
        <select
          aria-label="Operator"
          value={leaf.operator}
          onChange={(e) => change({ ...leaf, operator: e.currentTarget.value })}
        >
          {OPERATORS.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
        <input
          aria-label="Value"
          value={String(leaf.value)}
          // a number when it reads as one, so that < and > compare numbers
          onInput={(e) =>
            change({
              ...leaf,
              value:
                e.currentTarget.value.trim() !== '' && !Number.isNaN(Number(e.currentTarget.value))
                  ? Number(e.currentTarget.value)
                  : e.currentTarget.value,
            })
          }
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
              onChange={(e) =>
                change({
                  ...leaf,
                  weekDays: e.currentTarget.checked
                    ? [...leaf.weekDays, n].sort()
                    : leaf.weekDays.filter((d) => d !== n),
                })
              }
            />
            {day}
          </label>
        ))}{' '}
        from{' '}
        <input
          type="time"
          aria-label="From"
          value={clock(leaf.timeOfDay.from)}
          onChange={(e) => change({ ...leaf, timeOfDay: { ...leaf.timeOfDay, from: seconds(e.currentTarget.value) } })}
        />{' '}
        to{' '}
        <input
          type="time"
          aria-label="To"
          value={clock(leaf.timeOfDay.to)}
          onChange={(e) => change({ ...leaf, timeOfDay: { ...leaf.timeOfDay, to: seconds(e.currentTarget.value) } })}
        />
      </span>
    );
  }
  return (
    <span>
      the device{' '}
      <select
        aria-label="Landmark trigger"
        value={leaf.type}
        onChange={(e) => change({ ...leaf, type: e.currentTarget.value as Trigger })}
      >
        {TRIGGERS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>{' '}
      <select
        aria-label="Landmark"
        value={leaf.ids[0] ?? ''}
        onChange={(e) => change({ ...leaf, ids: [e.currentTarget.value] })}
      >
        {/* a leaf made before the project's landmarks arrived names none: say so rather than show the first as chosen */}
        {leaf.ids.length === 0 && (
          <option value="">{landmarks.length === 0 ? '(no landmarks in this project)' : '(choose a landmark)'}</option>
        )}
        {landmarks.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </span>
  );
}

/** A number typed into a field, or `fallback` while it is empty or not a number. */
const number = (value: string, fallback: number) =>
  value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : fallback;

/** A count compared: its operator (`contains` is not a count's) and the number it is compared with. */
function CountComparison({
  of,
  change,
}: {
  of: { operator: string; value: number };
  change: (count: { operator: string; value: number }) => void;
}) {
  return (
    <>
      <select
        aria-label="Count operator"
        value={of.operator}
        onChange={(e) => change({ operator: e.currentTarget.value, value: of.value })}
      >
        {OPERATORS.filter((o) => o !== 'contains').map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>{' '}
      <input
        aria-label="Count"
        type="number"
        min={0}
        value={of.value}
        onInput={(e) => change({ operator: of.operator, value: number(e.currentTarget.value, 0) })}
      />
    </>
  );
}

/** A streaming camera's object condition: its kind, the zone or line (the project's offered, any text taken), the label (any when empty) and what its kind asks. */
function ObjectsEditor({ leaf, change }: { leaf: Objects; change: (l: Leaf) => void }) {
  const line = leaf.kind === 'crossed';
  return (
    <span data-testid="object-condition" data-kind={leaf.kind}>
      a camera's object{' '}
      <select
        aria-label="Object condition"
        value={leaf.kind}
        onChange={(e) => change({ ...leaf, kind: e.currentTarget.value as ObjectKind })}
      >
        {OBJECT_KINDS.map(([kind, words]) => (
          <option key={kind} value={kind}>
            {kind}: {words}
          </option>
        ))}
      </select>{' '}
      {line ? 'line' : 'zone'}{' '}
      <input
        aria-label={line ? 'Line' : 'Zone'}
        size={12}
        list={line ? 'rule-lines' : 'rule-zones'}
        placeholder={line ? 'gate' : 'loading_dock'}
        value={leaf.place}
        onInput={(e) => change({ ...leaf, place: e.currentTarget.value })}
      />{' '}
      label{' '}
      <input
        aria-label="Label"
        size={12}
        list="rule-labels"
        placeholder="(any label)"
        value={leaf.label}
        onInput={(e) => change({ ...leaf, label: e.currentTarget.value })}
      />
      {leaf.kind === 'crossed' && (
        <>
          {' '}
          direction{' '}
          <select
            aria-label="Direction"
            value={leaf.direction}
            onChange={(e) => change({ ...leaf, direction: e.currentTarget.value as Objects['direction'] })}
          >
            <option value="">either</option>
            <option value="in">in (from the line's left to its right)</option>
            <option value="out">out</option>
          </select>
        </>
      )}
      {leaf.kind === 'dwell' && (
        <>
          {' '}
          for at least{' '}
          <input
            aria-label="Seconds"
            type="number"
            min={1}
            max={86400}
            value={leaf.seconds}
            onInput={(e) => change({ ...leaf, seconds: number(e.currentTarget.value, 0) })}
          />{' '}
          s
        </>
      )}
      {leaf.kind === 'inZone' && (
        <>
          , count <CountComparison of={leaf} change={(count) => change({ ...leaf, ...count })} />
        </>
      )}
    </span>
  );
}
