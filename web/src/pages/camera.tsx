// A camera's part of its device page: a device with a vision profile
// (PUT /v2/devices/:id/vision). The latest frame's detections are drawn with
// the profile's zones and counting lines. A camera that streams (the
// profile's `stream`, read by the server) is drawn on its stream's latest
// frame (GET /v2/devices/:id/vision/stream/frame, read every second), each
// box with its label and its object's #trackId; its stream (URL, frames a
// second, whether it is read) is edited here and its status (state, why,
// fps in and out, drops, latency, objects) read every 2 s. A camera that
// does not stream is drawn on its latest frame event: the frame itself when
// the camera keeps its frames (GET /v2/devices/:id/frames/:event), or a blank
// frame of the image's shape when it does not; new frame events arrive live
// (the event tail). Zones are drawn by clicking their corners, like
// landmarks, and lines by clicking their two ends (start, then end: the
// arrow on each shows its `in` direction, line-geometry.ts); both are saved
// with the profile. Keeping frames is switched on and off here too, and the
// profile's model version and threshold are edited. A device that is no
// camera (its `camera` field) is offered a form that makes it one; its
// profile is never asked for.
//
// The frame is drawn at its image's own aspect ratio (4:3 until an image
// has been seen), and the labels are laid out so that none is written over
// another.
import { useEffect, useState } from 'preact/hooks';
import { get, getBlob, post, put } from '../api';
import { ErrorNote } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import { useEventTail } from '../tail';
import { inArrow } from '../line-geometry';
import type {
  CameraStream,
  Data,
  Detection,
  DeviceEvent,
  ImageLine,
  ImageZone,
  Model,
  ModelWithVersions,
  Page,
  StreamFrame,
  StreamStats,
  StreamStatus,
  VisionProfile,
} from '../types';

/** The frame's drawing width; its height follows the image's aspect ratio. Detections and zones are fractions of the image, x first. */
const WIDTH = 640;
/** The height of a frame whose image has not been seen: 4:3. */
const DEFAULT_HEIGHT = 480;

/** A frame's detections by label: a frame event's each with the zones it lies in (ingest/frames.ts), a stream frame's boxes with their trackId. */
type FrameDetections = Record<string, Array<Detection & { zones?: string[]; trackId?: number }>>;

/** The frame's detections, if the event is a camera frame's. */
function frameOf(event: DeviceEvent): FrameDetections | undefined {
  const payload = event.payload as Record<string, unknown>;
  return typeof payload.modelVersionId === 'string' &&
    typeof payload.detections === 'object' &&
    payload.detections !== null
    ? (payload.detections as FrameDetections)
    : undefined;
}

/** A point of the image, in the frame's drawing units. */
type Scale = (point: readonly number[]) => string;
const scaler =
  (height: number): Scale =>
  ([x, y]) =>
    `${(x ?? 0) * WIDTH},${(y ?? 0) * height}`;

/** What the panel shows of a frame event's image: its size, for the frame's aspect ratio. */
type FrameImage =
  | { state: 'none' }
  | { state: 'shown'; url: string; width: number; height: number }
  | { state: 'gone' };

/** An image's natural size, once it has loaded. */
function imageSize(url: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => reject(new Error('the frame did not decode'));
    img.src = url;
  });
}

/**
 * The kept image of a frame event, as an object URL (the request carries
 * the session's token, which an <image href> cannot), revoked when the
 * frame changes; 'gone' once its frame is kept no more.
 */
function useFrameImage(deviceId: string, event: DeviceEvent | undefined): FrameImage {
  const [image, setImage] = useState<FrameImage>({ state: 'none' });
  const kept = event !== undefined && (event.payload as Record<string, unknown>).frameKept === true;
  const eventId = kept ? event.id : undefined;
  useEffect(() => {
    if (!eventId) return setImage({ state: 'none' });
    const abort = new AbortController();
    let url: string | undefined;
    getBlob(`/v2/devices/${encodeURIComponent(deviceId)}/frames/${encodeURIComponent(eventId)}`, abort.signal)
      .then(async (blob) => {
        url = URL.createObjectURL(blob);
        const size = await imageSize(url);
        if (!abort.signal.aborted && size.width > 0 && size.height > 0) setImage({ state: 'shown', url, ...size });
      })
      .catch(() => !abort.signal.aborted && setImage({ state: 'gone' }));
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [deviceId, eventId]);
  return image;
}

/** The model versions the organization can run (Active), named for a choice. */
function useRunnableVersions() {
  return useResource(async () => {
    const { data } = await get<Data<Model[]>>('/v2/models');
    const models = await Promise.all(
      data.map(async (model) => (await get<Data<ModelWithVersions>>(`/v2/models/${model.id}`)).data),
    );
    return models.flatMap((m) =>
      m.versions.filter((v) => v.status === 'Active').map((v) => ({ id: v.id, label: `${m.name} v${v.version}` })),
    );
  }, 'runnable versions');
}

/** The model version choice of a profile; the profile's own listed even when it is not (or no longer) Active. */
function VersionSelect({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const versions = useRunnableVersions();
  const listed = versions.data ?? [];
  return (
    <select aria-label="Model version" required value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {value === '' && (
        <option value="">
          {versions.data && listed.length === 0 ? '(no Active model version)' : '(choose a model version)'}
        </option>
      )}
      {value !== '' && !listed.some((v) => v.id === value) && <option value={value}>{value}</option>}
      {listed.map((v) => (
        <option key={v.id} value={v.id}>
          {v.label} ({v.id})
        </option>
      ))}
    </select>
  );
}

/** A threshold field's value as the profile's options take it: none when empty. */
const thresholdOption = (text: string) => (text.trim() === '' ? {} : { threshold: Number(text) });

/**
 * The camera panel of a device page: the camera's when the device is one
 * (`camera`), else (for those who may change devices) a form that makes it
 * one. `recent`: the device's latest events, newest first.
 */
export function CameraPanel({
  deviceId,
  camera,
  recent,
  onMade,
}: {
  deviceId: string;
  camera: boolean;
  recent: DeviceEvent[];
  onMade: () => void;
}) {
  const manager = useIsManager();
  if (!camera) return manager ? <MakeCamera deviceId={deviceId} onMade={onMade} /> : null;
  return <CameraProfile deviceId={deviceId} recent={recent} />;
}

function CameraProfile({ deviceId, recent }: { deviceId: string; recent: DeviceEvent[] }) {
  const profile = useResource(
    async () => (await get<Data<VisionProfile>>(`/v2/devices/${encodeURIComponent(deviceId)}/vision`)).data,
    `vision ${deviceId}`,
  );
  if (!profile.data) return <ErrorNote error={profile.error} />;
  return <Camera key={profile.data.updatedAt} profile={profile.data} recent={recent} onSaved={profile.reload} />;
}

/** Makes the device a camera: a vision profile with its model version, threshold and whether frames are kept (zones are drawn on its frame next). */
function MakeCamera({ deviceId, onMade }: { deviceId: string; onMade: () => void }) {
  const [versionId, setVersionId] = useState('');
  const [threshold, setThreshold] = useState('');
  const [keepFrames, setKeepFrames] = useState(false);
  const save = useAction();
  return (
    <section class="panel camera" aria-label="Camera">
      <header>
        <h2>Camera</h2>
        <span class="muted">not a camera: it has no vision profile</span>
      </header>
      <form
        class="inline"
        aria-label="Make it a camera"
        onSubmit={(e) => {
          e.preventDefault();
          void save.run(async () => {
            await put(`/v2/devices/${encodeURIComponent(deviceId)}/vision`, {
              modelVersionId: versionId,
              options: thresholdOption(threshold),
              zones: [],
              keepFrames,
            });
            onMade();
          });
        }}
      >
        <VersionSelect value={versionId} onChange={setVersionId} />
        <label>
          Threshold{' '}
          <input
            type="number"
            min={0}
            max={1}
            step={0.05}
            placeholder="the version's"
            value={threshold}
            onInput={(e) => setThreshold(e.currentTarget.value)}
          />
        </label>
        <label>
          <input type="checkbox" checked={keepFrames} onChange={(e) => setKeepFrames(e.currentTarget.checked)} /> Keep
          frames
        </label>
        <button type="submit" disabled={save.busy || versionId === ''}>
          Make it a camera
        </button>
      </form>
      <p class="muted">
        Its frames (POST /v1/iot/frames) then run through that version; draw its zones on its frame once it is a camera.
      </p>
      <ErrorNote error={save.error} />
    </section>
  );
}

/** The stream's latest frame, every second while the camera streams (404 until there is one: `error` says why). */
function useStreamFrame(deviceId: string, streaming: boolean) {
  return useResource(
    async () =>
      streaming
        ? (await get<Data<StreamFrame>>(`/v2/devices/${encodeURIComponent(deviceId)}/vision/stream/frame`)).data
        : undefined,
    `stream frame ${deviceId} ${streaming}`,
    streaming ? FRAME_POLL_MS : undefined,
  );
}

/** How often the stream's latest frame and its status are read again while the page is open. */
const FRAME_POLL_MS = 1000;
const STATUS_POLL_MS = 2000;

/** What the frame is drawn from: the stream's latest frame, or the latest frame event (its kept image, if any). */
interface Shown {
  detections: FrameDetections | undefined;
  image: { href: string; width: number; height: number } | undefined;
}

/** A drawing in progress: a zone's corners, or a line's two ends (start, then end). */
interface Draft {
  kind: 'zone' | 'line';
  points: Array<[number, number]>;
}

/** The stream as the PUT takes it back: the masked URL keeps the stored one. */
const streamInput = (stream: CameraStream | undefined) =>
  stream && { url: stream.url, fps: stream.fps, enabled: stream.enabled };

type ProfileChanges = Partial<Pick<VisionProfile, 'zones' | 'lines' | 'keepFrames' | 'modelVersionId' | 'options'>> & {
  stream?: { url: string; fps?: number; enabled: boolean } | undefined;
};

function Camera({ profile, recent, onSaved }: { profile: VisionProfile; recent: DeviceEvent[]; onSaved: () => void }) {
  const streaming = profile.stream?.enabled === true;
  // New frames as they are committed (only a camera's page holds a stream open).
  const [live, setLive] = useState<DeviceEvent | undefined>();
  const tail = useEventTail({ deviceId: profile.deviceId }, (events) => {
    const frames = events.filter((e) => frameOf(e));
    if (frames.length) setLive(frames[frames.length - 1]);
  });
  // A frame committed after the page read the recent events but before its
  // tail was live is in neither: once live, the latest frame is read again.
  useEffect(() => {
    if (tail.state !== 'live') return;
    let current = true;
    void post<Page<DeviceEvent>>('/v2/events', { deviceId: profile.deviceId, limit: 20 })
      .then((page) => {
        const newest = page.data.find((e) => frameOf(e));
        if (current && newest) setLive((shown) => (shown && shown.id >= newest.id ? shown : newest));
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [tail.state, profile.deviceId]);
  const latest = live ?? recent.find((e) => frameOf(e));
  // A camera that streams stores no frame events: its frame is the stream's latest.
  const image = useFrameImage(profile.deviceId, streaming ? undefined : latest);
  const streamFrame = useStreamFrame(profile.deviceId, streaming);
  const [zones, setZones] = useState<ImageZone[]>(profile.zones);
  const [lines, setLines] = useState<ImageLine[]>(profile.lines);
  const [keepFrames, setKeepFrames] = useState(profile.keepFrames);
  const [versionId, setVersionId] = useState(profile.modelVersionId);
  const [threshold, setThreshold] = useState(
    profile.options.threshold === undefined ? '' : String(profile.options.threshold),
  );
  const [draft, setDraft] = useState<Draft>();
  const [name, setName] = useState('');
  const save = useAction();
  const saveProfile = (changes: ProfileChanges) =>
    save.run(async () => {
      await put(`/v2/devices/${encodeURIComponent(profile.deviceId)}/vision`, {
        modelVersionId: profile.modelVersionId,
        options: profile.options,
        zones,
        lines,
        // what this page does not edit goes back as it came: a PUT replaces the whole profile
        tracking: profile.tracking,
        keepFrames,
        stream: streamInput(profile.stream),
        ...changes,
      });
      onSaved();
    });
  const savePlaces = () => saveProfile({ zones, lines, keepFrames });
  const { threshold: _old, ...otherOptions } = profile.options;
  const options = { ...otherOptions, ...thresholdOption(threshold) };
  const settingsChanged =
    versionId !== profile.modelVersionId || JSON.stringify(options) !== JSON.stringify(profile.options);
  const frame = streamFrame.data;
  const shown: Shown = streaming
    ? {
        detections: frame?.detections,
        image: frame && {
          href: `data:image/jpeg;base64,${frame.image}`,
          width: frame.width,
          height: frame.height,
        },
      }
    : {
        detections: latest ? frameOf(latest) : undefined,
        image: image.state === 'shown' ? { href: image.url, width: image.width, height: image.height } : undefined,
      };
  const { detections } = shown;
  const changed =
    JSON.stringify(zones) !== JSON.stringify(profile.zones) || JSON.stringify(lines) !== JSON.stringify(profile.lines);
  const height =
    shown.image && shown.image.width > 0 && shown.image.height > 0
      ? Math.round((WIDTH * shown.image.height) / shown.image.width)
      : DEFAULT_HEIGHT;
  const pixel = scaler(height);
  const drawn = (point: readonly number[]): [number, number] => [(point[0] ?? 0) * WIDTH, (point[1] ?? 0) * height];
  const labels = layOutLabels(
    [
      ...zones.map((zone) => ({
        key: `zone ${zone.name}`,
        kind: 'zone' as const,
        text: zone.name,
        x: (zone.polygon[0]?.[0] ?? 0) * WIDTH + 4,
        y: (zone.polygon[0]?.[1] ?? 0) * height + 14,
      })),
      ...lines.map((line) => ({
        key: `line ${line.name}`,
        kind: 'line' as const,
        text: line.name,
        x: line.line[0][0] * WIDTH + 4,
        y: line.line[0][1] * height + 14,
      })),
      ...Object.entries(detections ?? {}).flatMap(([label, list]) =>
        list.flatMap((d, i) =>
          d.type === 'rectangle'
            ? [
                {
                  key: `${label}-${i}`,
                  kind: 'detection' as const,
                  text: detectionTitle(label, d),
                  x: d.data.min[0] * WIDTH + 2,
                  y: d.data.min[1] * height - 3,
                },
              ]
            : [],
        ),
      ),
    ],
    height,
  );

  const addPoint = (e: MouseEvent) => {
    if (!draft || (draft.kind === 'line' && draft.points.length >= 2)) return;
    const box = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
    const x = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
    const y = Math.min(1, Math.max(0, (e.clientY - box.top) / box.height));
    setDraft({ ...draft, points: [...draft.points, [Number(x.toFixed(4)), Number(y.toFixed(4))]] });
  };
  const draftLine =
    draft?.kind === 'line' && draft.points.length === 2
      ? ([draft.points[0], draft.points[1]] as [[number, number], [number, number]])
      : undefined;
  const sameEnds =
    draftLine !== undefined && draftLine[0][0] === draftLine[1][0] && draftLine[0][1] === draftLine[1][1];
  const taken = draft && (draft.kind === 'zone' ? zones : lines).some((place) => place.name === name);

  return (
    // data-updated-at: the saved profile the panel shows (a save re-renders it)
    <section class="panel camera" aria-label="Camera" data-updated-at={profile.updatedAt}>
      <header>
        <h2>Camera</h2>
        <span class="muted">
          model version <code>{profile.modelVersionId}</code>
        </span>
      </header>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        data-testid="camera-frame"
        data-source={streaming ? 'stream' : 'events'}
        class={draft ? 'drawing' : ''}
        role="img"
        aria-label={
          detections
            ? `the latest ${streaming ? 'stream ' : ''}frame’s detections, the zones and the lines`
            : 'the zones and the lines; no frame yet'
        }
        onClick={addPoint}
      >
        <rect class="frame" width={WIDTH} height={height} />
        {shown.image && (
          <image
            href={shown.image.href}
            width={WIDTH}
            height={height}
            data-testid="camera-image"
            data-source={streaming ? 'stream' : 'kept'}
          />
        )}
        {zones.map((zone) => (
          <g key={zone.name} class="zone" data-zone={zone.name}>
            <polygon points={zone.polygon.map(pixel).join(' ')} />
          </g>
        ))}
        {detections &&
          Object.entries(detections).flatMap(([label, list]) =>
            list.map((d, i) => <DetectionMark key={`${label}-${i}`} label={label} detection={d} height={height} />),
          )}
        {lines.map((line) => (
          <LineMark key={line.name} name={line.name} start={drawn(line.line[0])} end={drawn(line.line[1])} />
        ))}
        {draft && draft.points.length > 0 && (
          <polyline
            class={`${draft.kind}-draft`}
            data-testid={`camera-${draft.kind}-draft`}
            points={draft.points.map(pixel).join(' ')}
          />
        )}
        {draftLine && !sameEnds && <LineMark start={drawn(draftLine[0])} end={drawn(draftLine[1])} />}
        <g class="labels">
          {labels.map((l) => (
            <text key={l.key} class={`${l.kind}-label`} x={l.x} y={l.y}>
              {l.text}
            </text>
          ))}
        </g>
      </svg>
      <p class="muted" data-testid="camera-latest">
        {streaming ? (
          frame ? (
            `latest stream frame: ${new Date(frame.at).toLocaleString()} (${frame.width} × ${frame.height}, as the model saw it)${streamFrame.error ? `; no newer one: ${streamFrame.error}` : ''}`
          ) : streamFrame.error ? (
            `No frame of the stream yet: ${streamFrame.error}`
          ) : (
            'Reading the stream’s latest frame…'
          )
        ) : (
          <>
            {latest
              ? `latest frame: ${new Date(latest.clientSentAt ?? latest.serverReceivedAt).toLocaleString()}`
              : 'No frame yet: the camera has sent none.'}{' '}
            {image.state === 'shown'
              ? ''
              : image.state === 'gone'
                ? 'Its image is kept no more: the detections are drawn on a blank frame.'
                : 'Its image was not kept: the detections are drawn on a blank frame.'}
          </>
        )}
      </p>
      <StreamSettings
        deviceId={profile.deviceId}
        stream={profile.stream}
        busy={save.busy}
        save={(stream) => saveProfile({ stream })}
      />
      <form
        class="inline"
        aria-label="Vision profile"
        onSubmit={(e) => {
          e.preventDefault();
          void saveProfile({ modelVersionId: versionId, options });
        }}
      >
        <VersionSelect value={versionId} onChange={setVersionId} />
        <label>
          Threshold{' '}
          <input
            type="number"
            min={0}
            max={1}
            step={0.05}
            placeholder="the version's"
            value={threshold}
            onInput={(e) => setThreshold(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={!settingsChanged || save.busy}>
          Save profile
        </button>
      </form>
      <label class="inline">
        <input
          type="checkbox"
          checked={keepFrames}
          disabled={save.busy}
          onChange={(e) => {
            setKeepFrames(e.currentTarget.checked);
            // With the zones and lines as drawn: the saved profile re-renders the panel, which would drop unsaved ones.
            void saveProfile({ zones, lines, keepFrames: e.currentTarget.checked });
          }}
        />{' '}
        Keep frames (each as long as its event, within the organization's quota)
      </label>
      <ul class="zones" data-testid="camera-zones">
        {zones.map((zone) => (
          <li key={zone.name}>
            {zone.name}{' '}
            <button type="button" class="quiet" onClick={() => setZones(zones.filter((z) => z !== zone))}>
              Remove {zone.name}
            </button>
          </li>
        ))}
      </ul>
      <ul class="zones" data-testid="camera-lines">
        {lines.map((line) => (
          <li key={line.name} data-line={line.name}>
            line {line.name}{' '}
            <button type="button" class="quiet" onClick={() => setLines(lines.filter((l) => l !== line))}>
              Remove line {line.name}
            </button>
          </li>
        ))}
      </ul>
      {draft ? (
        <form
          class="inline"
          aria-label={draft.kind === 'zone' ? 'New zone' : 'New line'}
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.kind === 'zone') setZones([...zones, { name, polygon: draft.points }]);
            else if (draftLine) setLines([...lines, { name, line: draftLine }]);
            setDraft(undefined);
            setName('');
          }}
        >
          <input
            aria-label={draft.kind === 'zone' ? 'Zone name' : 'Line name'}
            placeholder={draft.kind === 'zone' ? 'loading_dock' : 'gate'}
            pattern="[A-Za-z_][A-Za-z0-9_]{0,63}"
            required
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <span class="muted" data-testid="camera-draft-hint">
            {draft.kind === 'zone'
              ? `${draft.points.length} corners: click the frame to add more`
              : draft.points.length < 2
                ? `${draft.points.length} of 2 ends: click the frame at its start, then at its end`
                : sameEnds
                  ? 'its two ends are the same point: cancel and draw it again'
                  : 'crossing it along the arrow (from its left to its right, start → end) counts as in'}
          </span>
          {taken && (
            <span class="error">
              another {draft.kind} is named {name}
            </span>
          )}
          <button
            type="submit"
            disabled={taken || (draft.kind === 'zone' ? draft.points.length < 3 : !draftLine || sameEnds)}
          >
            {draft.kind === 'zone' ? 'Add zone' : 'Add line'}
          </button>
          <button type="button" class="quiet" onClick={() => setDraft(undefined)}>
            Cancel
          </button>
        </form>
      ) : (
        <div class="toolbar">
          <button type="button" class="quiet" onClick={() => setDraft({ kind: 'zone', points: [] })}>
            Draw a zone
          </button>
          <button type="button" class="quiet" onClick={() => setDraft({ kind: 'line', points: [] })}>
            Draw a line
          </button>
          <button type="button" disabled={!changed || save.busy} onClick={savePlaces}>
            Save zones and lines
          </button>
        </div>
      )}
      <ErrorNote error={save.error} />
    </section>
  );
}

/** A counting line on the frame, its ends in drawing units, with the arrow of its `in` direction (line-geometry.ts); a draft's has no name. */
function LineMark({ name, start, end }: { name?: string; start: [number, number]; end: [number, number] }) {
  const arrow = inArrow(start, end);
  return (
    <g
      class={name === undefined ? 'line line-preview' : 'line'}
      data-line={name}
      data-testid={name === undefined ? 'camera-line-preview' : 'camera-line'}
    >
      <line class="line-path" x1={start[0]} y1={start[1]} x2={end[0]} y2={end[1]} />
      <circle class="line-start" cx={start[0]} cy={start[1]} r={3} />
      {arrow && (
        <g class="line-arrow" data-testid="camera-line-arrow">
          <line x1={arrow.tail[0]} y1={arrow.tail[1]} x2={arrow.tip[0]} y2={arrow.tip[1]} />
          <polygon points={arrow.head.map(([x, y]) => `${x},${y}`).join(' ')} />
        </g>
      )}
      <title>{`${name ?? 'the new line'}: the arrow points the way that crosses it in`}</title>
    </g>
  );
}

/** The stream's status class, as the console colours states. */
const STATE_CLASS: Record<StreamStatus['state'], string> = {
  running: 'active',
  connecting: 'initializing',
  retrying: 'failed',
  stopped: 'failed',
};

const figure = (value: unknown, digits = 0) =>
  typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '–';

/** A stream's figures in a line: fps in and out, drops, latency, objects followed. */
function describeStats(stats: StreamStats | undefined): string {
  if (!stats) return 'no figures yet';
  const latency = stats.latencyMs
    ? `p50 ${figure(stats.latencyMs.p50)} ms / p99 ${figure(stats.latencyMs.p99)} ms`
    : '–';
  return [
    `fps in ${figure(stats.fpsIn, 1)} / out ${figure(stats.fpsOut, 1)}`,
    `drops ${figure(stats.drops)}`,
    `latency ${latency}`,
    `objects ${figure(stats.objects)}`,
  ].join(' · ');
}

/**
 * The camera's stream: its URL (its password shown masked; sent back as it
 * is, the server keeps the stored one), frames a second and whether it is
 * read, saved with the profile; and its status, read again every 2 s.
 */
function StreamSettings({
  deviceId,
  stream,
  busy,
  save,
}: {
  deviceId: string;
  stream: CameraStream | undefined;
  busy: boolean;
  save: (stream: { url: string; fps?: number; enabled: boolean } | undefined) => void;
}) {
  const [url, setUrl] = useState(stream?.url ?? '');
  const [fps, setFps] = useState(stream ? String(stream.fps) : '');
  const [enabled, setEnabled] = useState(stream?.enabled ?? true);
  const fpsValue = fps.trim() === '' ? undefined : Number(fps);
  const changed = stream
    ? url !== stream.url || fpsValue !== stream.fps || enabled !== stream.enabled
    : url.trim() !== '';
  return (
    <div class="stream" data-testid="camera-stream">
      <form
        class="inline"
        aria-label="Stream"
        onSubmit={(e) => {
          e.preventDefault();
          save({ url: url.trim(), ...(fpsValue !== undefined && { fps: fpsValue }), enabled });
        }}
      >
        <input
          aria-label="Stream URL"
          type="text"
          size={40}
          placeholder="rtsp://user:password@camera/stream"
          required
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <label>
          fps{' '}
          <input
            aria-label="Stream fps"
            type="number"
            min={0.1}
            max={30}
            step={0.1}
            placeholder="5"
            value={fps}
            onInput={(e) => setFps(e.currentTarget.value)}
          />
        </label>
        <label>
          <input
            type="checkbox"
            aria-label="Stream enabled"
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />{' '}
          read it
        </label>
        <button type="submit" disabled={!changed || busy}>
          Save stream
        </button>
        {stream && (
          <button type="button" class="quiet" disabled={busy} onClick={() => save(undefined)}>
            Stop streaming
          </button>
        )}
      </form>
      {stream ? (
        <StreamStatusLine deviceId={deviceId} first={stream.status} />
      ) : (
        <p class="muted">
          No stream: the camera sends its frames (POST /v1/iot/frames). A stream's URL is rtsp://, rtsps://, http(s)://
          (MJPEG, MPEG-TS) or file:// under the server's STREAM_FILES_DIR.
        </p>
      )}
    </div>
  );
}

/** A stream's state, why, and its figures, read again every 2 s while the page is open. */
function StreamStatusLine({ deviceId, first }: { deviceId: string; first: StreamStatus | undefined }) {
  const polled = useResource(
    async () => (await get<Data<VisionProfile>>(`/v2/devices/${encodeURIComponent(deviceId)}/vision`)).data.stream,
    `stream status ${deviceId}`,
    STATUS_POLL_MS,
  );
  const status = polled.data ? polled.data.status : first;
  return (
    <p class="stream-status" data-testid="stream-status" data-state={status?.state}>
      {status ? (
        <>
          <span class={`status ${STATE_CLASS[status.state]}`} data-testid="stream-state">
            {status.state}
          </span>{' '}
          {status.reason && (
            <span data-testid="stream-reason">
              {status.reason}
              {' · '}
            </span>
          )}
          <span class="muted" data-testid="stream-stats">
            {describeStats(status.stats as StreamStats | undefined)}
            {status.replica ? ` · read by ${status.replica}` : ''}
          </span>
        </>
      ) : (
        <span class="muted">no status yet</span>
      )}
      {polled.error && <span class="error"> {polled.error}</span>}
    </p>
  );
}

const detectionTitle = (label: string, detection: Detection & { zones?: string[]; trackId?: number }) =>
  `${label}${detection.trackId === undefined ? '' : ` #${detection.trackId}`} ${Math.round(detection.score * 100)}%${detection.zones?.length ? ` in ${detection.zones.join(', ')}` : ''}`;

/** Font sizes of the labels (style.css), in the frame's drawing units. */
const LABEL_SIZE = { zone: 13, line: 13, detection: 12 } as const;
type LabelKind = keyof typeof LABEL_SIZE;
interface Label {
  key: string;
  kind: LabelKind;
  text: string;
  /** where it would be written (left end, baseline) */
  x: number;
  y: number;
}

let measuring: CanvasRenderingContext2D | null | undefined;
/** A text's width at a label's size, in the console's font (an estimate where no canvas measures it). */
function textWidth(text: string, size: number): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return text.length * size * 0.62;
  measuring.font = `${size}px system-ui, sans-serif`;
  return measuring.measureText(text).width;
}

/**
 * Where each label is written so that none overlaps another: each in turn
 * at its place, or moved down (then up) a line at a time past the labels
 * already placed, and kept inside the frame.
 */
function layOutLabels(wanted: Label[], height: number): Label[] {
  const placed: Array<{ left: number; right: number; top: number; bottom: number }> = [];
  return wanted.map((label) => {
    const size = LABEL_SIZE[label.kind];
    const width = textWidth(label.text, size) + 2;
    const line = size + 3;
    const x = Math.max(0, Math.min(label.x, WIDTH - width));
    const box = (y: number) => ({ left: x, right: x + width, top: y - size, bottom: y + size * 0.3 });
    const free = (y: number) => {
      const b = box(y);
      return !placed.some((p) => b.left < p.right && p.left < b.right && b.top < p.bottom && p.top < b.bottom);
    };
    const start = Math.max(size, Math.min(label.y, height - size * 0.3));
    let y = start;
    for (let step = 1; !free(y) && step < 200; step++) {
      const down = start + step * line;
      const up = start - step * line;
      if (down <= height - size * 0.3 && free(down)) y = down;
      else if (up >= size && free(up)) y = up;
      else if (down > height && up < size) break; // no room left: the last place tried
    }
    placed.push(box(y));
    return { ...label, x, y };
  });
}

/** One detection on the frame: a box, a polygon or a point (a box's label and score are laid out with the others). */
function DetectionMark({
  label,
  detection,
  height,
}: {
  label: string;
  detection: Detection & { zones?: string[]; trackId?: number };
  height: number;
}) {
  const title = detectionTitle(label, detection);
  const common = { class: 'detection', 'data-label': label, 'data-track-id': detection.trackId };
  const pixel = scaler(height);
  switch (detection.type) {
    case 'rectangle': {
      const [x1, y1] = detection.data.min;
      const [x2, y2] = detection.data.max;
      return (
        <g {...common}>
          <rect x={x1 * WIDTH} y={y1 * height} width={(x2 - x1) * WIDTH} height={(y2 - y1) * height} />
          <title>{title}</title>
        </g>
      );
    }
    case 'polygon':
      return (
        <g {...common}>
          <polygon points={detection.data.points.map(pixel).join(' ')} />
          <title>{title}</title>
        </g>
      );
    case 'point':
      return (
        <g {...common}>
          <circle cx={detection.data.point[0] * WIDTH} cy={detection.data.point[1] * height} r={4} />
          <title>{title}</title>
        </g>
      );
    default:
      return null;
  }
}
