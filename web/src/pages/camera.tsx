// A camera's part of its device page: a device with a vision profile
// (PUT /v2/devices/:id/vision). The latest frame's detections are drawn with
// the profile's zones on the frame itself when the camera keeps its frames
// (GET /v2/devices/:id/frames/:event), or on a blank frame of the image's
// shape when it does not; new frame events arrive live (the event tail).
// Zones are drawn by clicking their corners, like landmarks, and saved with
// the profile; keeping frames is switched on and off here too, and the
// profile's model version and threshold are edited. A device that is no
// camera (its `camera` field) is offered a form that makes it one; its
// profile is never asked for.
//
// The frame is drawn at the kept image's own aspect ratio (4:3 until an
// image has been seen), and the labels are laid out so that none is
// written over another.
import { useEffect, useState } from 'preact/hooks';
import { get, getBlob, put } from '../api';
import { ErrorNote } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import { useEventTail } from '../tail';
import type { Data, Detection, DeviceEvent, ImageZone, Model, ModelWithVersions, VisionProfile } from '../types';

/** The frame's drawing width; its height follows the image's aspect ratio. Detections and zones are fractions of the image, x first. */
const WIDTH = 640;
/** The height of a frame whose image has not been seen: 4:3. */
const DEFAULT_HEIGHT = 480;

/** A frame event's detections by label, each with the zones it lies in (ingest/frames.ts). */
type FrameDetections = Record<string, Array<Detection & { zones?: string[] }>>;

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

function Camera({ profile, recent, onSaved }: { profile: VisionProfile; recent: DeviceEvent[]; onSaved: () => void }) {
  // New frames as they are committed (only a camera's page holds a stream open).
  const [live, setLive] = useState<DeviceEvent | undefined>();
  useEventTail({ deviceId: profile.deviceId }, (events) => {
    const frames = events.filter((e) => frameOf(e));
    if (frames.length) setLive(frames[frames.length - 1]);
  });
  const latest = live ?? recent.find((e) => frameOf(e));
  const image = useFrameImage(profile.deviceId, latest);
  const [zones, setZones] = useState<ImageZone[]>(profile.zones);
  const [keepFrames, setKeepFrames] = useState(profile.keepFrames);
  const [versionId, setVersionId] = useState(profile.modelVersionId);
  const [threshold, setThreshold] = useState(
    profile.options.threshold === undefined ? '' : String(profile.options.threshold),
  );
  const [draft, setDraft] = useState<Array<[number, number]>>();
  const [name, setName] = useState('');
  const save = useAction();
  const saveProfile = (changes: Partial<Pick<VisionProfile, 'zones' | 'keepFrames' | 'modelVersionId' | 'options'>>) =>
    save.run(async () => {
      await put(`/v2/devices/${encodeURIComponent(profile.deviceId)}/vision`, {
        modelVersionId: profile.modelVersionId,
        options: profile.options,
        zones,
        // what this page does not edit goes back as it came: a PUT replaces the whole profile
        lines: profile.lines,
        tracking: profile.tracking,
        keepFrames,
        ...changes,
      });
      onSaved();
    });
  const saveZones = () => saveProfile({ zones, keepFrames });
  const { threshold: _old, ...otherOptions } = profile.options;
  const options = { ...otherOptions, ...thresholdOption(threshold) };
  const settingsChanged =
    versionId !== profile.modelVersionId || JSON.stringify(options) !== JSON.stringify(profile.options);
  const detections = latest ? frameOf(latest) : undefined;
  const changed = JSON.stringify(zones) !== JSON.stringify(profile.zones);
  const height = image.state === 'shown' ? Math.round((WIDTH * image.height) / image.width) : DEFAULT_HEIGHT;
  const pixel = scaler(height);
  const labels = layOutLabels(
    [
      ...zones.map((zone) => ({
        key: `zone ${zone.name}`,
        kind: 'zone' as const,
        text: zone.name,
        x: (zone.polygon[0]?.[0] ?? 0) * WIDTH + 4,
        y: (zone.polygon[0]?.[1] ?? 0) * height + 14,
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

  const addCorner = (e: MouseEvent) => {
    if (!draft) return;
    const box = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
    const x = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
    const y = Math.min(1, Math.max(0, (e.clientY - box.top) / box.height));
    setDraft([...draft, [Number(x.toFixed(4)), Number(y.toFixed(4))]]);
  };

  return (
    <section class="panel camera" aria-label="Camera">
      <header>
        <h2>Camera</h2>
        <span class="muted">
          model version <code>{profile.modelVersionId}</code>
        </span>
      </header>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        data-testid="camera-frame"
        class={draft ? 'drawing' : ''}
        role="img"
        aria-label={detections ? 'the latest frame’s detections and the zones' : 'the zones; no frame yet'}
        onClick={addCorner}
      >
        <rect class="frame" width={WIDTH} height={height} />
        {image.state === 'shown' && <image href={image.url} width={WIDTH} height={height} data-testid="camera-image" />}
        {zones.map((zone) => (
          <g key={zone.name} class="zone" data-zone={zone.name}>
            <polygon points={zone.polygon.map(pixel).join(' ')} />
          </g>
        ))}
        {detections &&
          Object.entries(detections).flatMap(([label, list]) =>
            list.map((d, i) => <DetectionMark key={`${label}-${i}`} label={label} detection={d} height={height} />),
          )}
        {draft && draft.length > 0 && <polyline class="zone-draft" points={draft.map(pixel).join(' ')} />}
        <g class="labels">
          {labels.map((l) => (
            <text key={l.key} class={`${l.kind}-label`} x={l.x} y={l.y}>
              {l.text}
            </text>
          ))}
        </g>
      </svg>
      <p class="muted" data-testid="camera-latest">
        {latest
          ? `latest frame: ${new Date(latest.clientSentAt ?? latest.serverReceivedAt).toLocaleString()}`
          : 'No frame yet: the camera has sent none.'}{' '}
        {image.state === 'shown'
          ? ''
          : image.state === 'gone'
            ? 'Its image is kept no more: the detections are drawn on a blank frame.'
            : 'Its image was not kept: the detections are drawn on a blank frame.'}
      </p>
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
            // With the zones as drawn: the saved profile re-renders the panel, which would drop unsaved ones.
            void saveProfile({ zones, keepFrames: e.currentTarget.checked });
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
      {draft ? (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            setZones([...zones, { name, polygon: draft }]);
            setDraft(undefined);
            setName('');
          }}
        >
          <input
            aria-label="Zone name"
            placeholder="loading_dock"
            pattern="[A-Za-z_][A-Za-z0-9_]{0,63}"
            required
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <span class="muted">{draft.length} corners: click the frame to add more</span>
          <button type="submit" disabled={draft.length < 3}>
            Add zone
          </button>
          <button type="button" class="quiet" onClick={() => setDraft(undefined)}>
            Cancel
          </button>
        </form>
      ) : (
        <div class="toolbar">
          <button type="button" class="quiet" onClick={() => setDraft([])}>
            Draw a zone
          </button>
          <button type="button" disabled={!changed || save.busy} onClick={saveZones}>
            Save zones
          </button>
        </div>
      )}
      <ErrorNote error={save.error} />
    </section>
  );
}

const detectionTitle = (label: string, detection: Detection & { zones?: string[] }) =>
  `${label} ${Math.round(detection.score * 100)}%${detection.zones?.length ? ` in ${detection.zones.join(', ')}` : ''}`;

/** Font sizes of the labels (style.css), in the frame's drawing units. */
const LABEL_SIZE = { zone: 13, detection: 12 } as const;
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
  detection: Detection & { zones?: string[] };
  height: number;
}) {
  const title = detectionTitle(label, detection);
  const common = { class: 'detection', 'data-label': label };
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
