// Try a model version on an image: the image goes to the inference API
// (POST /v1/models/:id/predict) with an inference API key, as any client's
// would, and the answer is drawn over it. The request asks for every
// detection down to MIN_THRESHOLD once; the slider then only filters what
// is drawn, without asking again. A version with child stages answers, in
// each chosen detection's children, what its child versions saw in its
// crop: drawn inside it and listed after it.
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post, requestWithHeaders } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import type { Data, Detection, ModelVersion, NewInferenceKey, Prediction, Stage } from '../types';

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

/** What one drawing put on the canvas, by type (children included), and how many child stages' answers: the browser tests read it. */
interface Drawn {
  rectangle: number;
  polygon: number;
  point: number;
  /** detections of child stages, drawn or written under their parent (classes) */
  children: number;
}

/**
 * A detection's children, split: its own parts (a pose's keypoints: points
 * under a rectangle; a mask's box: a rectangle under a polygon, under the
 * polygon's own label, with box=true) and the answers of the version's
 * child stages (everything else: a classifier's classes, a detector's,
 * pose or segmentation child's shapes; never bare points, a pose child
 * answers rectangles with their keypoints).
 */
function childrenOf(label: string, detection: Detection) {
  const parts: Array<[string, Detection]> = [];
  const staged: Shown[] = [];
  for (const [key, children] of Object.entries(detection.children ?? {})) {
    for (const child of children) {
      const part =
        (detection.type === 'rectangle' && child.type === 'point') ||
        (detection.type === 'polygon' && child.type === 'rectangle' && key === label);
      if (part) parts.push([key, child]);
      else staged.push({ label: key, detection: child });
    }
  }
  staged.sort((a, b) => b.detection.score - a.detection.score);
  return { parts, staged };
}

/** Where a child class is written: under the bottom-left of its parent's geometry. */
function foot(detection: Detection): [number, number] | undefined {
  switch (detection.type) {
    case 'rectangle':
      return [detection.data.min[0], detection.data.max[1]];
    case 'polygon':
      return [Math.min(...detection.data.points.map((p) => p[0])), Math.max(...detection.data.points.map((p) => p[1]))];
    case 'point':
      return detection.data.point;
    case 'class':
      return undefined;
  }
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
 * (keypoints) as dots named by their key; a detection's own parts (a pose's
 * keypoints, a polygon's box) dashed in its colour. The answers of child
 * stages are drawn inside their parent (they are in the whole image's
 * fractions) in their own label's colour with thinner lines, their own
 * children likewise; a child's classes are written under its parent's
 * geometry. Top-level classes have no geometry: they are only listed.
 */
function draw(canvas: HTMLCanvasElement, image: HTMLImageElement, shown: Shown[]): Drawn {
  const { naturalWidth: w, naturalHeight: h } = image;
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(image, 0, 0);
  const line = Math.max(2, Math.round(Math.max(w, h) / 300));
  ctx.textBaseline = 'top';
  const drawn: Drawn = { rectangle: 0, polygon: 0, point: 0, children: 0 };

  /** A name at `[x, y]`: above it where there is room, else (and `inside`: a child's, apart from its parent's) below. */
  const caption = (
    text: string,
    [x, y]: [number, number],
    size: number,
    background: boolean,
    width: number,
    inside = false,
  ) => {
    ctx.font = `${size}px sans-serif`;
    const height = size + width * 2;
    const top = !inside && y * h >= height ? y * h - height : y * h;
    if (background) {
      ctx.fillRect(x * w - width / 2, top, ctx.measureText(text).width + width * 2, height);
      ctx.fillStyle = 'white';
    }
    ctx.fillText(text, x * w + width / 2, top + width);
  };
  /** Child classes, one a line under `at` (inside the geometry when the image ends below it). */
  const classes = (list: Shown[], [x, y]: [number, number], size: number, width: number) => {
    ctx.font = `${size}px sans-serif`;
    const height = size + width * 2;
    const first = y * h + list.length * height <= h ? y * h : Math.max(0, y * h - list.length * height);
    for (const [i, { label, detection }] of list.entries()) {
      const text = `${label} ${detection.score.toFixed(2)}`;
      const top = first + i * height;
      ctx.fillStyle = colour(label);
      ctx.fillRect(x * w, top, ctx.measureText(text).width + width * 2, height);
      ctx.fillStyle = 'white';
      ctx.fillText(text, x * w + width, top + width);
      drawn.children++;
    }
  };
  const shape = (detection: Detection, colour: string, nested: boolean, width: number) => {
    ctx.strokeStyle = ctx.fillStyle = colour;
    ctx.lineWidth = width;
    ctx.setLineDash(nested ? [width * 3, width * 2] : []);
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
        ctx.arc(x * w, y * h, width * 2.5, 0, 2 * Math.PI);
        ctx.fill();
        break;
      }
      case 'class':
        return;
    }
    drawn[detection.type]++;
  };
  /** A detection, its parts and its child stages' answers; `depth` 0 for the version's own. */
  const detection = (label: string, d: Detection, depth: number) => {
    const colourOf = colour(label);
    const width = depth ? Math.max(1, line / (depth + 1)) : line;
    shape(d, colourOf, false, width);
    const { parts, staged } = childrenOf(label, d);
    for (const [key, child] of parts) {
      shape(child, colourOf, true, width);
      ctx.strokeStyle = ctx.fillStyle = colourOf;
      if (child.type === 'point') caption(key, child.data.point, width * 5, false, width);
    }
    for (const child of staged) {
      if (child.detection.type === 'class') continue;
      detection(child.label, child.detection, depth + 1);
      drawn.children++;
    }
    const at = anchor(d);
    ctx.strokeStyle = ctx.fillStyle = colourOf;
    ctx.setLineDash([]);
    if (at) caption(`${label} ${d.score.toFixed(2)}`, at, depth ? line * 5 : line * 7, true, width, depth > 0);
    const under = foot(d);
    const written = staged.filter((child) => child.detection.type === 'class');
    if (under && written.length) classes(written, under, line * 6, line);
  };

  for (const { label, detection: d } of shown) detection(label, d, 0);
  return drawn;
}

/** A detection's geometry in a few words, for the list beside the canvas (its child stages' answers apart: ChildList). */
function describe(label: string, detection: Detection): string {
  const n = (v: number) => v.toFixed(3);
  const children = childrenOf(label, detection).parts.length;
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

/** A detection's child stages' answers, after it in the list: "— red 0.981", their own in brackets. */
function ChildList({ label, detection }: { label: string; detection: Detection }) {
  const { staged } = childrenOf(label, detection);
  if (!staged.length) return null;
  return (
    <span class="children" data-testid="children">
      {' — '}
      {staged.map((child, i) => (
        <Fragment key={i}>
          {i > 0 && ', '}
          <span class="child" style={{ borderColor: colour(child.label) }}>
            {child.label} {child.detection.score.toFixed(3)}
          </span>
          {childrenOf(child.label, child.detection).staged.length > 0 && (
            <>
              {' ('}
              <ChildList label={child.label} detection={child.detection} />
              {')'}
            </>
          )}
        </Fragment>
      ))}
    </span>
  );
}

/** A version's stages in a line: "circle, square → 01J…". */
function stagesLine(stages: Stage[]): string {
  return stages.map((stage) => `${stage.labels.join(', ')} → ${stage.modelVersionId}`).join('; ');
}

export function Predict({ versionId }: { versionId: string }) {
  const version = useResource(() => get<Data<ModelVersion>>(`/v2/model-versions/${versionId}`), versionId);
  const [key, setKey] = useState(() => sessionStorage.getItem(KEY) ?? '');
  const [image, setImage] = useState<HTMLImageElement>();
  const [prediction, setPrediction] = useState<Prediction>();
  /** X-Children-Skipped: the child stages that could not run, and why */
  const [skipped, setSkipped] = useState<string>();
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
      setSkipped(undefined);
      setImage(undefined);
      const url = URL.createObjectURL(file);
      const loaded = new Image();
      loaded.src = url;
      await loaded.decode().finally(() => URL.revokeObjectURL(url));
      setImage(loaded);
      const form = new FormData();
      form.append('file', file);
      const answer = await requestWithHeaders<Prediction>(
        'POST',
        `/v1/models/${encodeURIComponent(versionId)}/predict?threshold=${MIN_THRESHOLD}`,
        {
          authorization: `Bearer ${key}`,
          body: form,
        },
      );
      setPrediction(answer.body);
      setSkipped(answer.headers.get('x-children-skipped') ?? undefined);
    });

  return (
    <>
      <p>
        <Link href="/models">← Models</Link>
      </p>
      <h1>Try {v ? `${v.name} (version ${v.version})` : 'a model'}</h1>
      <ErrorNote error={version.error} />
      {v && v.stages.length > 0 && (
        <p class="muted" data-testid="stages">
          Child stages: {stagesLine(v.stages)}
        </p>
      )}
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
      {skipped && (
        <p class="warnings" data-testid="children-skipped">
          Child stages skipped: {skipped}
        </p>
      )}
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
          data-children={image && prediction && drawn ? drawn.children : undefined}
        />
        {prediction && (
          <ol class="detections" data-testid="detections">
            {shown.map(({ label, detection }, i) => (
              <li key={i} style={{ borderColor: colour(label) }}>
                <strong>{label}</strong> {detection.score.toFixed(3)}
                <span class="muted"> {describe(label, detection)}</span>
                <ChildList label={label} detection={detection} />
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
