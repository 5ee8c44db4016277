// Landmarks of a project on a map: drawn as a circle, a rectangle or a
// polygon, edited by dragging their handles (a polygon's corners, a
// rectangle's corners, a circle's centre and rim), saved, deleted. The map
// needs no tiles: without a tile source it is a grid of latitude and
// longitude; with one (the server's MAP_TILE_URL, or a URL template set
// here and kept in this browser, e.g. OpenStreetMap's) its tiles lie underneath.
import { useEffect, useRef, useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { circleBox, distance, fitView, metresPerPixel, toLatLon, toScreen, type LatLon, type View } from '../map';
import { Grid, MAP_HEIGHT as HEIGHT, MAP_WIDTH as WIDTH, storedTiles, Tiles, TILES_KEY as TILES } from '../map-view';
import { useIsManager } from '../me';
import type { Data, Landmark } from '../types';

/** A landmark's `model` (Gen A/B spelling): what is drawn, and what a save sends. */
type Shape = Landmark['model'];

type Tool = 'pan' | Shape['type'];
const TOOLS: Array<[Tool, string]> = [
  ['pan', 'Move'],
  ['circle', 'Circle'],
  ['rectangle', 'Rectangle'],
  ['polygon', 'Polygon'],
];

/** A rectangle from two opposite corners, whichever they are. */
const rectangle = (a: LatLon, b: LatLon): Shape => ({
  type: 'rectangle',
  geometry: {
    nw: { lat: Math.max(a.lat, b.lat), lon: Math.min(a.lon, b.lon) },
    se: { lat: Math.min(a.lat, b.lat), lon: Math.max(a.lon, b.lon) },
  },
});

/** Where a circle's rim handle sits: due east of the centre, one radius away. */
const rimOf = (center: LatLon, radius: number): LatLon => ({
  lat: center.lat,
  lon: center.lon + radius / (111_320 * Math.cos((center.lat * Math.PI) / 180)),
});

/** The points a shape can be dragged by: a polygon's corners; a rectangle's four corners, clockwise from north-west; a circle's centre and rim. */
function handlesOf(shape: Shape): LatLon[] {
  if (shape.type === 'polygon') return shape.geometry.points;
  if (shape.type === 'circle') return [shape.geometry.center, rimOf(shape.geometry.center, shape.geometry.radius)];
  const { nw, se } = shape.geometry;
  return [nw, { lat: nw.lat, lon: se.lon }, se, { lat: se.lat, lon: nw.lon }];
}

/** The shape with handle `index` (see handlesOf) dragged to `at`. */
function moveHandle(shape: Shape, index: number, at: LatLon): Shape {
  if (shape.type === 'polygon')
    return { type: 'polygon', geometry: { points: shape.geometry.points.map((p, i) => (i === index ? at : p)) } };
  if (shape.type === 'circle') {
    const { center, radius } = shape.geometry;
    return index === 0
      ? { type: 'circle', geometry: { center: at, radius } }
      : { type: 'circle', geometry: { center, radius: Math.max(1, Math.round(distance(center, at))) } };
  }
  return rectangle(handlesOf(shape)[(index + 2) % 4]!, at); // the opposite corner stays
}

/** What a view must hold to show the shape whole: a circle's box, a rectangle's corners, a polygon's points. */
const pointsOf = (shape: Shape): LatLon[] =>
  shape.type === 'circle'
    ? circleBox(shape.geometry.center, shape.geometry.radius)
    : shape.type === 'rectangle'
      ? [shape.geometry.nw, shape.geometry.se]
      : shape.geometry.points;

/** The view that shows every landmark whole (before: a 200 m circle was cut by the zoom picked for its centre alone), or the whole world when there are none. */
function fit(landmarks: Landmark[]): View {
  const points = landmarks.flatMap((l) => pointsOf(l.model));
  if (points.length === 0) return { center: { lat: 20, lon: 0 }, zoom: 2, width: WIDTH, height: HEIGHT };
  return fitView(points, WIDTH, HEIGHT);
}

export function Landmarks() {
  const projects = useResource(
    async () => (await get<Data<Array<{ id: string; name: string }>>>('/v2/projects')).data,
    'projects',
  );
  const [chosen, setChosen] = useState<string>();
  const projectId = chosen ?? projects.data?.[0]?.id;
  return (
    <>
      <h1>Landmarks</h1>
      <ErrorNote error={projects.error} />
      {projects.data?.length === 0 && (
        <p>
          Landmarks belong to a project: create one under <Link href="/projects">Projects</Link> first.
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
          <ProjectLandmarks key={projectId} projectId={projectId} />
        </>
      )}
    </>
  );
}

function ProjectLandmarks({ projectId }: { projectId: string }) {
  const landmarks = useResource(
    async () => (await get<Data<Landmark[]>>(`/v2/projects/${projectId}/landmarks`)).data,
    projectId,
  );
  const manager = useIsManager();
  const action = useAction();
  const [view, setView] = useState<View>();
  const [tool, setTool] = useState<Tool>('pan');
  const [draft, setDraft] = useState<Shape>();
  /** the landmark whose shape and name the draft is editing; none: the draft is a new landmark */
  const [editing, setEditing] = useState<Landmark>();
  const [name, setName] = useState('');
  const [tiles, setTiles] = useState(storedTiles);
  useEffect(() => {
    if (landmarks.data && !view) setView(fit(landmarks.data));
  }, [landmarks.data, view]);

  const discard = () => {
    setDraft(undefined);
    setEditing(undefined);
    setName('');
  };
  const save = () =>
    action.run(async () => {
      if (editing) await patch(`/v2/landmarks/${editing.id}`, { name, model: draft });
      else await post('/v2/landmarks', { projectId, name, model: draft });
      discard();
      landmarks.reload();
    });
  const edit = (landmark: Landmark) => {
    setEditing(landmark);
    setDraft(landmark.model);
    setName(landmark.name);
    setTool('pan');
    setView(fit([landmark]));
  };
  const remove = (landmark: Landmark) =>
    confirm(`Delete landmark ${landmark.name}?`) &&
    action.run(async () => {
      await del(`/v2/landmarks/${landmark.id}`);
      landmarks.reload();
    });
  const draftReady = draft && (draft.type !== 'polygon' || draft.geometry.points.length >= 3);

  return (
    <>
      {manager && (
        <div class="toolbar" role="toolbar" aria-label="Map tools">
          {TOOLS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              class={tool === value ? '' : 'quiet'}
              aria-pressed={tool === value}
              onClick={() => setTool(value)}
            >
              {label}
            </button>
          ))}
          <span class="muted">
            {tool === 'pan'
              ? 'Drag to move, wheel to zoom.'
              : tool === 'polygon'
                ? 'Click each corner.'
                : 'Drag on the map.'}
            {draft && ' Drag the white handles to reshape.'}
          </span>
        </div>
      )}
      {view && (
        <MapView
          view={view}
          setView={setView}
          tool={manager ? tool : 'pan'}
          landmarks={(landmarks.data ?? []).filter((l) => l.id !== editing?.id)}
          draft={draft}
          setDraft={setDraft}
          tiles={tiles}
        />
      )}
      {draft && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <input
            aria-label="Landmark name"
            placeholder="Landmark name"
            required
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <button type="submit" disabled={!draftReady || action.busy}>
            {editing ? `Save changes to ${editing.name}` : `Save ${draft.type}`}
          </button>
          <button type="button" class="quiet" onClick={discard}>
            Discard
          </button>
        </form>
      )}
      <ErrorNote error={action.error ?? landmarks.error} />
      <table>
        <tbody>
          {landmarks.data?.map((l) => (
            <tr key={l.id} data-landmark-name={l.name}>
              <td>{l.name}</td>
              <td>{l.model.type}</td>
              <td class="actions">
                <button type="button" class="quiet" onClick={() => setView(fit([l]))}>
                  Show
                </button>
                {manager && (
                  <>
                    <button type="button" class="quiet" onClick={() => edit(l)}>
                      Edit
                    </button>
                    <button type="button" class="danger" onClick={() => remove(l)}>
                      Delete
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <label class="muted">
        Map tiles (URL template, kept in this browser; empty: a grid only){' '}
        <input
          aria-label="Tile URL"
          size={48}
          placeholder="https://tile.openstreetmap.org/{z}/{x}/{y}.png"
          value={tiles}
          onChange={(e) => {
            setTiles(e.currentTarget.value.trim());
            localStorage.setItem(TILES, e.currentTarget.value.trim());
          }}
        />
      </label>{' '}
      {localStorage.getItem(TILES) !== null && (
        <button
          type="button"
          class="quiet"
          onClick={() => {
            localStorage.removeItem(TILES);
            setTiles(storedTiles());
          }}
        >
          Use the server's tiles
        </button>
      )}
    </>
  );
}

function ShapeView({ view, shape, name, draft }: { view: View; shape: Shape; name?: string; draft?: boolean }) {
  const cls = draft ? 'shape draft' : 'shape';
  const data = draft ? { 'data-draft': shape.type } : { 'data-landmark': name };
  if (shape.type === 'circle') {
    const [x, y] = toScreen(view, shape.geometry.center);
    return (
      <circle
        class={cls}
        {...data}
        cx={x}
        cy={y}
        r={shape.geometry.radius / metresPerPixel(view, shape.geometry.center.lat)}
      />
    );
  }
  if (shape.type === 'rectangle') {
    const [x0, y0] = toScreen(view, shape.geometry.nw);
    const [x1, y1] = toScreen(view, shape.geometry.se);
    return (
      <rect
        class={cls}
        {...data}
        x={Math.min(x0, x1)}
        y={Math.min(y0, y1)}
        width={Math.abs(x1 - x0)}
        height={Math.abs(y1 - y0)}
      />
    );
  }
  const points = shape.geometry.points.map((p) => toScreen(view, p).join(',')).join(' ');
  return <polygon class={cls} {...data} points={points} />;
}

function MapView(props: {
  view: View;
  setView: (v: View) => void;
  tool: Tool;
  landmarks: Landmark[];
  draft: Shape | undefined;
  setDraft: (s: Shape | undefined) => void;
  tiles: string;
}) {
  const { view, setView, tool, draft, setDraft } = props;
  const svg = useRef<SVGSVGElement>(null);
  /** a drag in progress: of the map or a new shape (from `start`), or of one of the draft's handles */
  const drag = useRef<{ x: number; y: number; start: LatLon; view: View; handle?: number } | undefined>(undefined);
  const [cursor, setCursor] = useState<LatLon>();
  /** The pointer in the map's own units (the SVG is scaled to the page). */
  const local = (e: PointerEvent | WheelEvent): [number, number] => {
    const box = svg.current!.getBoundingClientRect();
    return [((e.clientX - box.left) * WIDTH) / box.width, ((e.clientY - box.top) * HEIGHT) / box.height];
  };
  const shapeTo = (start: LatLon, at: LatLon): Shape =>
    tool === 'circle'
      ? { type: 'circle', geometry: { center: start, radius: Math.round(distance(start, at)) } }
      : rectangle(start, at);
  return (
    <div class="map">
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        data-testid="landmark-map"
        class={`tool-${tool}`}
        onPointerDown={(e) => {
          const [x, y] = local(e);
          const at = toLatLon(view, x, y);
          if (tool === 'polygon') {
            setDraft({
              type: 'polygon',
              geometry: { points: [...(draft?.type === 'polygon' ? draft.geometry.points : []), at] },
            });
            return;
          }
          svg.current!.setPointerCapture(e.pointerId);
          drag.current = { x, y, start: at, view };
        }}
        onPointerMove={(e) => {
          const [x, y] = local(e);
          setCursor(toLatLon(view, x, y));
          const d = drag.current;
          if (!d) return;
          if (d.handle !== undefined) {
            if (draft) setDraft(moveHandle(draft, d.handle, toLatLon(view, x, y)));
          } else if (tool === 'pan')
            setView({ ...d.view, center: toLatLon(d.view, WIDTH / 2 - (x - d.x), HEIGHT / 2 - (y - d.y)) });
          else setDraft(shapeTo(d.start, toLatLon(view, x, y)));
        }}
        onPointerUp={() => {
          drag.current = undefined;
        }}
        onWheel={(e) => {
          e.preventDefault();
          setView({ ...view, zoom: Math.min(19, Math.max(1, view.zoom - Math.sign(e.deltaY) * 0.5)) });
        }}
      >
        <rect class="sea" width={WIDTH} height={HEIGHT} />
        <Tiles view={view} template={props.tiles} />
        <Grid view={view} />
        {props.landmarks.map((l) => (
          <ShapeView key={l.id} view={view} shape={l.model} name={l.name} />
        ))}
        {draft && <ShapeView view={view} shape={draft} draft />}
        {draft &&
          handlesOf(draft).map((p, i) => {
            const [cx, cy] = toScreen(view, p);
            return (
              <circle
                key={i}
                class="handle"
                data-handle={i}
                cx={cx}
                cy={cy}
                r={6}
                onPointerDown={(e) => {
                  // a handle's drag, not a new shape or a polygon corner
                  e.stopPropagation();
                  svg.current!.setPointerCapture(e.pointerId);
                  const [x, y] = local(e);
                  drag.current = { x, y, start: p, view, handle: i };
                }}
              />
            );
          })}
      </svg>
      <div class="map-status muted">
        <button type="button" class="quiet" onClick={() => setView({ ...view, zoom: Math.min(19, view.zoom + 1) })}>
          +
        </button>
        <button type="button" class="quiet" onClick={() => setView({ ...view, zoom: Math.max(1, view.zoom - 1) })}>
          −
        </button>{' '}
        zoom {view.zoom.toFixed(1)}
        {cursor && ` · ${cursor.lat.toFixed(5)}, ${cursor.lon.toFixed(5)}`} <GoTo view={view} setView={setView} />
      </div>
    </div>
  );
}

/** Latitude, longitude (decimal degrees, as "48.2082, 16.3738"): without tiles, the way to find a place is to name it. */
const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/;

function GoTo({ view, setView }: { view: View; setView: (v: View) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      class="inline go-to"
      onSubmit={(e) => {
        e.preventDefault();
        const match = COORDINATES.exec(text);
        const lat = Number(match?.[1]);
        const lon = Number(match?.[2]);
        if (!match || Math.abs(lat) > 85 || Math.abs(lon) > 180) {
          setError('latitude, longitude in degrees, e.g. 48.2082, 16.3738');
          return;
        }
        setError(undefined);
        setView({ ...view, center: { lat, lon }, zoom: Math.max(view.zoom, 15) });
      }}
    >
      <input
        aria-label="Go to coordinates"
        placeholder="lat, lon"
        size={22}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit" class="quiet">
        Go
      </button>
      {error && <span class="error"> {error}</span>}
    </form>
  );
}
