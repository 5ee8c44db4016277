// Try a model version on an image: the image goes to the inference API
// (POST /v1/models/:id/predict) with an inference API key, as any client's
// would, and the answer is drawn over it. The request asks for every
// detection down to MIN_THRESHOLD once; the slider then only filters what
// is drawn, without asking again.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post, request } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import type { Data, Detection, ModelVersion, NewInferenceKey, Prediction } from '../types';

const MIN_THRESHOLD = 0.05;
/** Predict needs an inference API key, not the session: the one chosen here stays for the session of this tab. */
const KEY = 'sense.inferenceKey';

interface Shown {
  label: string;
  detection: Detection;
}

/** One colour per label, the same on every image. */
function colour(label: string): string {
  let hash = 0;
  for (const char of label) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 85% 45%)`;
}

/** What one drawing put on the canvas, by type: the browser tests read it. */
interface Drawn {
  rectangle: number;
  polygon: number;
  point: number;
}

/** Where a detection's label goes: the top-left of its geometry; none for a class (no geometry). */
function anchor(detection: Detection): [number, number] | undefined {
  switch (detection.type) {
    case 'rectangle':
      return detection.data.min;
    case 'polygon':
      return [Math.min(...detection.data.points.map((p) => p[0])), Math.min(...detection.data.points.map((p) => p[1]))];
    case 'point':
      return detection.data.point;
    case 'class':
      return undefined;
  }
}

/**
 * Draws the image and every shown detection over it: rectangles outlined,
 * polygons (segmentation) filled translucent and outlined, points
 * (keypoints) as dots named by their key; children (a pose's keypoints, a
 * polygon's box) drawn in their parent's colour. Classes have no geometry:
 * they are only listed.
 */
function draw(canvas: HTMLCanvasElement, image: HTMLImageElement, shown: Shown[]): Drawn {
  const { naturalWidth: w, naturalHeight: h } = image;
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(image, 0, 0);
  const line = Math.max(2, Math.round(Math.max(w, h) / 300));
  ctx.lineWidth = line;
  ctx.textBaseline = 'top';
  const drawn: Drawn = { rectangle: 0, polygon: 0, point: 0 };

  const caption = (text: string, [x, y]: [number, number], size: number, background: boolean) => {
    ctx.font = `${size}px sans-serif`;
    const height = size + line * 2;
    const top = y * h >= height ? y * h - height : y * h;
    if (background) {
      ctx.fillRect(x * w - line / 2, top, ctx.measureText(text).width + line * 2, height);
      ctx.fillStyle = 'white';
    }
    ctx.fillText(text, x * w + line / 2, top + line);
  };
  const shape = (detection: Detection, colour: string, nested: boolean) => {
    ctx.strokeStyle = ctx.fillStyle = colour;
    ctx.setLineDash(nested ? [line * 3, line * 2] : []);
    switch (detection.type) {
      case 'rectangle': {
        const [x0, y0] = detection.data.min;
        const [x1, y1] = detection.data.max;
        ctx.strokeRect(x0 * w, y0 * h, (x1 - x0) * w, (y1 - y0) * h);
        break;
      }
      case 'polygon': {
        ctx.beginPath();
        for (const [x, y] of detection.data.points) ctx.lineTo(x * w, y * h);
        ctx.closePath();
        ctx.globalAlpha = 0.3;
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.stroke();
        break;
      }
      case 'point': {
        const [x, y] = detection.data.point;
        ctx.beginPath();
        ctx.arc(x * w, y * h, line * 2.5, 0, 2 * Math.PI);
        ctx.fill();
        break;
      }
      case 'class':
        return;
    }
    drawn[detection.type]++;
  };

  for (const { label, detection } of shown) {
    const colourOf = colour(label);
    shape(detection, colourOf, false);
    for (const [key, children] of Object.entries(detection.children ?? {})) {
      for (const child of children) {
        shape(child, colourOf, true);
        ctx.strokeStyle = ctx.fillStyle = colourOf;
        if (child.type === 'point') caption(key, child.data.point, line * 5, false);
      }
    }
    const at = anchor(detection);
    ctx.strokeStyle = ctx.fillStyle = colourOf;
    if (at) caption(`${label} ${detection.score.toFixed(2)}`, at, line * 7, true);
  }
  return drawn;
}

/** A detection's geometry in a few words, for the list beside the canvas. */
function describe(detection: Detection): string {
  const n = (v: number) => v.toFixed(3);
  const children = Object.values(detection.children ?? {}).flat().length;
  const nested = children ? `, ${children} nested` : '';
  switch (detection.type) {
    case 'rectangle':
      return `[${detection.data.min.map(n).join(', ')}] – [${detection.data.max.map(n).join(', ')}]${nested}`;
    case 'polygon':
      return `polygon of ${detection.data.points.length} points${nested}`;
    case 'point':
      return `[${detection.data.point.map(n).join(', ')}]${nested}`;
    case 'class':
      return `class${nested}`;
  }
}

export function Predict({ versionId }: { versionId: string }) {
  const version = useResource(() => get<Data<ModelVersion>>(`/v2/model-versions/${versionId}`), versionId);
  const [key, setKey] = useState(() => sessionStorage.getItem(KEY) ?? '');
  const [image, setImage] = useState<HTMLImageElement>();
  const [prediction, setPrediction] = useState<Prediction>();
  // Starts at the version's own default: what the API answers when a client sets no threshold.
  const [threshold, setThreshold] = useState<number>();
  const [dragging, setDragging] = useState(false);
  const action = useAction();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState<Drawn>();

  const chooseKey = (value: string) => {
    setKey(value);
    sessionStorage.setItem(KEY, value);
  };

  const v = version.data?.data;
  const minimum = threshold ?? Math.max(MIN_THRESHOLD, v?.defaults.threshold ?? MIN_THRESHOLD);
  const shown: Shown[] = Object.entries(prediction ?? {})
    .flatMap(([label, detections]) => detections.map((detection) => ({ label, detection })))
    .filter(({ detection }) => detection.score >= minimum)
    .sort((a, b) => b.detection.score - a.detection.score);

  useEffect(() => {
    if (!canvas.current) return;
    if (!image) {
      // No picture of an earlier image under a new image's error.
      canvas.current.width = canvas.current.height = 0;
      return;
    }
    const now = draw(canvas.current, image, shown);
    if (JSON.stringify(now) !== JSON.stringify(drawn)) setDrawn(now);
  });

  const predict = (file: File) =>
    action.run(async () => {
      setPrediction(undefined);
      setImage(undefined);
      const url = URL.createObjectURL(file);
      const loaded = new Image();
      loaded.src = url;
      await loaded.decode().finally(() => URL.revokeObjectURL(url));
      setImage(loaded);
      const form = new FormData();
      form.append('file', file);
      setPrediction(
        await request<Prediction>(
          'POST',
          `/v1/models/${encodeURIComponent(versionId)}/predict?threshold=${MIN_THRESHOLD}`,
          {
            authorization: `Bearer ${key}`,
            body: form,
          },
        ),
      );
    });

  return (
    <>
      <p>
        <Link href="/models">← Models</Link>
      </p>
      <h1>Try {v ? `${v.name} (version ${v.version})` : 'a model'}</h1>
      <ErrorNote error={version.error} />
      <KeyChoice value={key} choose={chooseKey} />
      <div
        class={`drop ${dragging ? 'over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const file = e.dataTransfer?.files[0];
          if (file) void predict(file);
        }}
      >
        <label>
          Drop an image here, or choose one:{' '}
          <input
            type="file"
            name="image"
            accept="image/*"
            disabled={!key}
            onChange={(e) => e.currentTarget.files?.[0] && predict(e.currentTarget.files[0])}
          />
        </label>
        {!key && <p class="muted">Choose an inference API key first.</p>}
      </div>
      <ErrorNote error={action.error} />
      {action.busy && <p role="status">Predicting…</p>}
      <label class="slider">
        Threshold {minimum.toFixed(2)}
        <input
          type="range"
          name="threshold"
          min={MIN_THRESHOLD}
          max={1}
          step={0.01}
          value={minimum}
          onInput={(e) => setThreshold(Number(e.currentTarget.value))}
        />
      </label>
      <div class="result">
        <canvas
          ref={canvas}
          data-testid="prediction-canvas"
          data-boxes={image && prediction ? shown.length : undefined}
          data-drawn={
            image && prediction && drawn
              ? `${drawn.rectangle} rectangles, ${drawn.polygon} polygons, ${drawn.point} points`
              : undefined
          }
        />
        {prediction && (
          <ol class="detections" data-testid="detections">
            {shown.map(({ label, detection }, i) => (
              <li key={i} style={{ borderColor: colour(label) }}>
                <strong>{label}</strong> {detection.score.toFixed(3)}
                <span class="muted"> {describe(detection)}</span>
              </li>
            ))}
          </ol>
        )}
      </div>
      {prediction && (
        <details open>
          <summary>Answer (JSON, every detection from {MIN_THRESHOLD})</summary>
          <pre data-testid="raw-json">{JSON.stringify(prediction, null, 2)}</pre>
        </details>
      )}
    </>
  );
}

/**
 * The inference API key predict is called with. Keys are shown only when
 * created (the server keeps digests), so the user pastes one, or, as an
 * admin or project manager, creates one for this browser here; either way
 * they are managed under API keys.
 */
function KeyChoice({ value, choose }: { value: string; choose: (key: string) => void }) {
  const manager = useIsManager();
  const action = useAction();
  return (
    <fieldset class="key-choice">
      <legend>Inference API key</legend>
      <input
        type="password"
        aria-label="Inference API key"
        placeholder="sk_…"
        value={value}
        onInput={(e) => choose(e.currentTarget.value.trim())}
      />
      {manager && (
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            action.run(async () =>
              choose(
                (await post<Data<NewInferenceKey>>('/v2/inference/api-keys', { name: 'console (browser)' })).data
                  .apiKey,
              ),
            )
          }
        >
          Create a key for this browser
        </button>
      )}
      <span class="muted">
        {' '}
        Keys are managed under <Link href="/settings/api-keys">API keys</Link>.
      </span>
      <ErrorNote error={action.error} />
    </fieldset>
  );
}
