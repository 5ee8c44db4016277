// A camera's part of its device page: a device with a vision profile
// (PUT /v2/devices/:id/vision). The latest frame's detections are drawn with
// the profile's zones on the frame itself when the camera keeps its frames
// (GET /v2/devices/:id/frames/:event), or on a blank frame of the image's
// shape when it does not; new frame events arrive live (the event tail).
// Zones are drawn by clicking their corners, like landmarks, and saved with
// the profile; keeping frames is switched on and off here too.
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, get, getBlob, put } from '../api';
import { ErrorNote } from '../components';
import { useAction, useResource } from '../hooks';
import { useEventTail } from '../tail';
import type { Data, Detection, DeviceEvent, ImageZone, VisionProfile } from '../types';

/** The frame's drawing size: detections and zones are fractions of the image, x first. */
const WIDTH = 640;
const HEIGHT = 480;

/** A frame event's detections by label, each with the zones it lies in (ingest/frames.ts). */
type FrameDetections = Record<string, Array<Detection & { zones?: string[] }>>;

/** The frame's detections, if the event is a camera frame's. */
function frameOf(event: DeviceEvent): FrameDetections | undefined {
  const payload = event.payload as Record<string, unknown>;
  return typeof payload.modelVersionId === 'string' && typeof payload.detections === 'object' && payload.detections !== null
    ? (payload.detections as FrameDetections)
    : undefined;
}

const pixel = ([x, y]: readonly number[]) => `${(x ?? 0) * WIDTH},${(y ?? 0) * HEIGHT}`;

/** What the panel shows of a frame event's image. */
type FrameImage = { state: 'none' } | { state: 'shown'; url: string } | { state: 'gone' };

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
    getBlob(`/v2/devices/${encodeURIComponent(deviceId)}/frames/${encodeURIComponent(eventId)}`, abort.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setImage({ state: 'shown', url });
      },
      () => !abort.signal.aborted && setImage({ state: 'gone' }),
    );
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [deviceId, eventId]);
  return image;
}

/**
 * The camera panel of a device page, or nothing for a device without a
 * vision profile. `recent`: the device's latest events, newest first.
 */
export function CameraPanel({ deviceId, recent }: { deviceId: string; recent: DeviceEvent[] }) {
  const profile = useResource(async () => {
    try {
      return (await get<Data<VisionProfile>>(`/v2/devices/${encodeURIComponent(deviceId)}/vision`)).data;
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.status === 404) return null; // no camera
      throw failure;
    }
  }, `vision ${deviceId}`);
  if (!profile.data) return <ErrorNote error={profile.error} />;
  return <Camera key={profile.data.updatedAt} profile={profile.data} recent={recent} onSaved={profile.reload} />;
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
  const [draft, setDraft] = useState<Array<[number, number]>>();
  const [name, setName] = useState('');
  const save = useAction();
  const saveProfile = (changes: Pick<VisionProfile, 'zones' | 'keepFrames'>) =>
    save.run(async () => {
      await put(`/v2/devices/${encodeURIComponent(profile.deviceId)}/vision`, {
        modelVersionId: profile.modelVersionId,
        options: profile.options,
        ...changes,
      });
      onSaved();
    });
  const saveZones = () => saveProfile({ zones, keepFrames });
  const detections = latest ? frameOf(latest) : undefined;
  const changed = JSON.stringify(zones) !== JSON.stringify(profile.zones);

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
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        data-testid="camera-frame"
        class={draft ? 'drawing' : ''}
        role="img"
        aria-label={detections ? 'the latest frame’s detections and the zones' : 'the zones; no frame yet'}
        onClick={addCorner}
      >
        <rect class="frame" width={WIDTH} height={HEIGHT} />
        {image.state === 'shown' && <image href={image.url} width={WIDTH} height={HEIGHT} preserveAspectRatio="none" data-testid="camera-image" />}
        {zones.map((zone) => (
          <g key={zone.name} class="zone" data-zone={zone.name}>
            <polygon points={zone.polygon.map(pixel).join(' ')} />
            <text x={(zone.polygon[0]?.[0] ?? 0) * WIDTH + 4} y={(zone.polygon[0]?.[1] ?? 0) * HEIGHT + 14}>
              {zone.name}
            </text>
          </g>
        ))}
        {detections &&
          Object.entries(detections).flatMap(([label, list]) =>
            list.map((d, i) => <DetectionMark key={`${label}-${i}`} label={label} detection={d} />),
          )}
        {draft && draft.length > 0 && <polyline class="zone-draft" points={draft.map(pixel).join(' ')} />}
      </svg>
      <p class="muted" data-testid="camera-latest">
        {latest ? `latest frame: ${new Date(latest.clientSentAt ?? latest.serverReceivedAt).toLocaleString()}` : 'No frame yet: the camera has sent none.'}{' '}
        {image.state === 'shown'
          ? ''
          : image.state === 'gone'
            ? 'Its image is kept no more: the detections are drawn on a blank frame.'
            : 'Its image was not kept: the detections are drawn on a blank frame.'}
      </p>
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
          <input aria-label="Zone name" placeholder="loading_dock" pattern="[A-Za-z_][A-Za-z0-9_]{0,63}" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
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

/** One detection on the frame: a box, a polygon or a point, with its label and score. */
function DetectionMark({ label, detection }: { label: string; detection: Detection & { zones?: string[] } }) {
  const title = `${label} ${Math.round(detection.score * 100)}%${detection.zones?.length ? ` in ${detection.zones.join(', ')}` : ''}`;
  const common = { class: 'detection', 'data-label': label };
  switch (detection.type) {
    case 'rectangle': {
      const [x1, y1] = detection.data.min;
      const [x2, y2] = detection.data.max;
      return (
        <g {...common}>
          <rect x={x1 * WIDTH} y={y1 * HEIGHT} width={(x2 - x1) * WIDTH} height={(y2 - y1) * HEIGHT} />
          <text x={x1 * WIDTH + 2} y={y1 * HEIGHT - 3}>
            {title}
          </text>
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
          <circle cx={detection.data.point[0] * WIDTH} cy={detection.data.point[1] * HEIGHT} r={4} />
          <title>{title}</title>
        </g>
      );
    default:
      return null;
  }
}
