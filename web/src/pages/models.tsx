// Models: every model of the organization with its versions, their status
// followed live (polled: a version loads in the background after its upload,
// Initializing → Active, or Failed with the reason), uploads with a progress
// bar, deletion, each version's child stages (shown, and edited: PUT
// /v2/models/:model/versions/:version/stages), and the way to try a version
// on an image.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { del, get, post, put, upload } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import type { Data, Model, ModelVersion, ModelWithVersions, Stage } from '../types';

/** Often enough to see a version turn Active soon after it does. */
const POLL_MS = 2000;

async function loadModels(): Promise<ModelWithVersions[]> {
  const { data } = await get<Data<Model[]>>('/v2/models');
  return Promise.all(data.map(async (model) => (await get<Data<ModelWithVersions>>(`/v2/models/${model.id}`)).data));
}

export function Models() {
  const models = useResource(loadModels, 'models', POLL_MS);
  const manager = useIsManager();
  const action = useAction();
  const [name, setName] = useState('');
  return (
    <>
      <h1>Models</h1>
      {manager && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void action.run(async () => {
              await post('/v2/models', { name });
              setName('');
              models.reload();
            });
          }}
        >
          <input
            placeholder="New model name"
            aria-label="New model name"
            required
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <button type="submit" disabled={action.busy}>
            Create model
          </button>
        </form>
      )}
      <ErrorNote error={action.error ?? models.error} />
      {models.data?.map((model) => (
        <ModelCard key={model.id} model={model} all={models.data!} manager={manager} changed={models.reload} />
      ))}
      {models.data?.length === 0 && <p class="muted">No models yet.</p>}
    </>
  );
}

function ModelCard({
  model,
  all,
  manager,
  changed,
}: {
  model: ModelWithVersions;
  /** every model of the organization: the versions a stage may run */
  all: ModelWithVersions[];
  manager: boolean;
  changed: () => void;
}) {
  const action = useAction();
  /** the version whose stages are being edited */
  const [editing, setEditing] = useState<string>();
  const remove = (path: string, what: string) =>
    confirm(`Delete ${what}?`) &&
    action.run(async () => {
      await del(path);
      changed();
    });
  return (
    <section class="panel" data-model-name={model.name}>
      <header>
        <h2>{model.name}</h2>
        {manager && (
          <button
            type="button"
            class="danger"
            onClick={() => remove(`/v2/models/${model.id}`, `model ${model.name} and all its versions`)}
          >
            Delete model
          </button>
        )}
      </header>
      {model.description && <p class="muted">{model.description}</p>}
      <ErrorNote error={action.error} />
      <table>
        <thead>
          <tr>
            <th>Version</th>
            <th>Id (for predict)</th>
            <th>Name</th>
            <th>Status</th>
            <th>Labels</th>
            <th>Input</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {model.versions.map((v) => (
            <Fragment key={v.id}>
              <tr data-version-id={v.id}>
                <td>{v.version}</td>
                <td>
                  <code class="id" data-testid="version-id">
                    {v.id}
                  </code>
                </td>
                <td>{v.name}</td>
                <td>
                  <span class={`status ${v.status.toLowerCase()}`} data-version-status={v.status}>
                    {v.status}
                  </span>
                  {v.statusReason && <div class="reason">{v.statusReason}</div>}
                </td>
                <td title={v.labels.join(', ')}>{v.labels.length}</td>
                <td>
                  {v.input.width}×{v.input.height}
                </td>
                <td class="actions">
                  {v.status === 'Active' && <Link href={`/models/${v.id}/predict`}>Try it</Link>}
                  {manager && editing !== v.id && (
                    <button type="button" onClick={() => setEditing(v.id)}>
                      Edit stages
                    </button>
                  )}
                  {manager && (
                    <button
                      type="button"
                      class="danger"
                      onClick={() => remove(`/v2/model-versions/${v.id}`, `version ${v.version} of ${model.name}`)}
                    >
                      Delete
                    </button>
                  )}
                </td>
              </tr>
              {(v.stages.length > 0 || editing === v.id) && (
                <tr class="stages-row" data-stages-of={v.id}>
                  <td colSpan={7}>
                    {editing === v.id ? (
                      <StagesEditor
                        model={model}
                        version={v}
                        all={all}
                        done={(saved) => {
                          setEditing(undefined);
                          if (saved) changed();
                        }}
                      />
                    ) : (
                      <StageList stages={v.stages} all={all} />
                    )}
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
      {manager && <UploadVersion model={model} uploaded={changed} />}
    </section>
  );
}

/** model.onnx and model.json as the multipart parts "model" and "config" (POST /v2/models/:id/versions). */
function UploadVersion({ model, uploaded }: { model: Model; uploaded: () => void }) {
  const action = useAction();
  const [progress, setProgress] = useState<number>();
  return (
    <form
      class="upload"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        void action.run(async () => {
          setProgress(0);
          try {
            await upload(`/v2/models/${model.id}/versions`, new FormData(form), setProgress);
            form.reset();
            uploaded();
          } finally {
            setProgress(undefined);
          }
        });
      }}
    >
      <label>
        model.onnx <input type="file" name="model" accept=".onnx" required />
      </label>
      <label>
        model.json <input type="file" name="config" accept=".json,application/json" required />
      </label>
      <button type="submit" disabled={action.busy}>
        Upload version
      </button>
      {progress !== undefined && (
        <span class="progress">
          <progress value={progress} max={1} aria-label="Upload progress" /> {Math.round(progress * 100)} %
        </span>
      )}
      <ErrorNote error={action.error} />
    </form>
  );
}

/** A version as a stage's child: its model's name and number, else its id (a public version of another organization). */
function versionName(id: string, all: ModelWithVersions[]): string {
  for (const model of all) {
    const version = model.versions.find((v) => v.id === id);
    if (version) return `${model.name} v${version.version}`;
  }
  return id;
}

/** A version's stages, one a line: labels → child version, then the crop and the child's options. */
function StageList({ stages, all }: { stages: Stage[]; all: ModelWithVersions[] }) {
  return (
    <ul class="stages" data-testid="stages">
      {stages.map((stage, i) => {
        const { padding, square, minSize } = stage.crop;
        const details = [
          `padding ${padding}`,
          square && 'square',
          `min ${minSize} px`,
          `${stage.maxPerImage} per image at most`,
          ...Object.entries(stage.options).map(([name, value]) => `${name} ${value}`),
        ].filter(Boolean);
        return (
          <li key={i} data-testid="stage">
            <strong>{stage.labels.join(', ')}</strong> → {versionName(stage.modelVersionId, all)}{' '}
            <code class="id">{stage.modelVersionId}</code> <span class="muted">{details.join(' · ')}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** A stage as edited: the numbers as typed (the server checks them and says what is wrong). */
interface StageDraft {
  labels: string[];
  modelVersionId: string;
  /** the child named by its id, in a text field, rather than chosen from the list */
  byId: boolean;
  padding: string;
  square: boolean;
  minSize: string;
  maxPerImage: string;
  /** the child's threshold; empty: its own default */
  threshold: string;
  /** the child's other options (iou, topK, …), kept as they were */
  options: Stage['options'];
}

const draftOf = (stage: Stage, ids: Set<string>): StageDraft => ({
  labels: stage.labels,
  modelVersionId: stage.modelVersionId,
  byId: !ids.has(stage.modelVersionId),
  padding: String(stage.crop.padding),
  square: stage.crop.square,
  minSize: String(stage.crop.minSize),
  maxPerImage: String(stage.maxPerImage),
  threshold: stage.options.threshold === undefined ? '' : String(stage.options.threshold),
  options: stage.options,
});

const stageOf = (draft: StageDraft): Stage => {
  const { threshold: _, ...options } = draft.options;
  return {
    labels: draft.labels,
    modelVersionId: draft.modelVersionId.trim(),
    crop: { padding: Number(draft.padding), square: draft.square, minSize: Number(draft.minSize) },
    maxPerImage: Number(draft.maxPerImage),
    options: draft.threshold.trim() === '' ? options : { ...options, threshold: Number(draft.threshold) },
  };
};

/**
 * A version's stages, edited: each stage's labels (the version's own),
 * its child (a version of the organization's models, or any version by its
 * id: a public one), its crop and the child's threshold; saved at once with
 * the PUT, whose refusal (a cycle, too deep, a version it cannot run) shows
 * here. `done(true)` once saved.
 */
function StagesEditor({
  model,
  version,
  all,
  done,
}: {
  model: Model;
  version: ModelVersion;
  all: ModelWithVersions[];
  done: (saved: boolean) => void;
}) {
  const ids = new Set(all.flatMap((m) => m.versions.map((v) => v.id)));
  const [drafts, setDrafts] = useState<StageDraft[]>(() => version.stages.map((stage) => draftOf(stage, ids)));
  const action = useAction();
  const change = (i: number, changes: Partial<StageDraft>) =>
    setDrafts((list) => list.map((draft, j) => (j === i ? { ...draft, ...changes } : draft)));
  const firstChild = all.flatMap((m) => m.versions).find((v) => v.id !== version.id)?.id;
  const add = () =>
    setDrafts((list) => [
      ...list,
      {
        labels: [],
        modelVersionId: firstChild ?? '',
        byId: firstChild === undefined,
        padding: '0',
        square: false,
        minSize: '4',
        maxPerImage: '16',
        threshold: '',
        options: {},
      },
    ]);
  return (
    <form
      class="stages-editor"
      data-testid="stages-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(async () => {
          await put(`/v2/models/${model.id}/versions/${version.id}/stages`, { stages: drafts.map(stageOf) });
          done(true);
        });
      }}
    >
      {drafts.length === 0 && <p class="muted">No stages: each detection is answered alone.</p>}
      {drafts.map((draft, i) => (
        <fieldset key={i} class="stage" data-testid="stage-draft">
          <legend>Stage {i + 1}</legend>
          <div class="stage-labels" role="group" aria-label="Labels">
            <span class="muted">Its detections labelled</span>
            {version.labels.map((label) => (
              <label key={label}>
                <input
                  type="checkbox"
                  checked={draft.labels.includes(label)}
                  onChange={(e) =>
                    change(i, {
                      labels: e.currentTarget.checked
                        ? version.labels.filter((l) => l === label || draft.labels.includes(l))
                        : draft.labels.filter((l) => l !== label),
                    })
                  }
                />
                {label}
              </label>
            ))}
          </div>
          <div class="row">
            <label>
              run through{' '}
              <select
                aria-label="Child version"
                value={draft.byId ? '' : draft.modelVersionId}
                onChange={(e) => {
                  const id = e.currentTarget.value;
                  change(i, id ? { modelVersionId: id, byId: false } : { byId: true });
                }}
              >
                {all.map((m) => (
                  <optgroup key={m.id} label={m.name}>
                    {m.versions.map((v) => (
                      <option key={v.id} value={v.id}>
                        {m.name} v{v.version} ({v.labels.length} labels) {v.id}
                      </option>
                    ))}
                  </optgroup>
                ))}
                <option value="">Another version, by its id…</option>
              </select>
            </label>
            {draft.byId && (
              <input
                aria-label="Child version id"
                placeholder="a version's id (a public one)"
                value={draft.modelVersionId}
                onInput={(e) => change(i, { modelVersionId: e.currentTarget.value })}
              />
            )}
          </div>
          <div class="row">
            <label>
              Padding{' '}
              <input
                type="number"
                name="padding"
                min={0}
                max={2}
                step="any"
                value={draft.padding}
                onInput={(e) => change(i, { padding: e.currentTarget.value })}
              />
            </label>
            <label>
              <input
                type="checkbox"
                name="square"
                checked={draft.square}
                onChange={(e) => change(i, { square: e.currentTarget.checked })}
              />{' '}
              Square
            </label>
            <label>
              Min size (px){' '}
              <input
                type="number"
                name="minSize"
                min={1}
                step={1}
                value={draft.minSize}
                onInput={(e) => change(i, { minSize: e.currentTarget.value })}
              />
            </label>
            <label>
              At most per image{' '}
              <input
                type="number"
                name="maxPerImage"
                min={1}
                max={256}
                step={1}
                value={draft.maxPerImage}
                onInput={(e) => change(i, { maxPerImage: e.currentTarget.value })}
              />
            </label>
            <label>
              Child's threshold{' '}
              <input
                type="number"
                name="threshold"
                min={0}
                max={1}
                step="any"
                placeholder="its default"
                value={draft.threshold}
                onInput={(e) => change(i, { threshold: e.currentTarget.value })}
              />
            </label>
            <button type="button" class="danger" onClick={() => setDrafts((list) => list.filter((_, j) => j !== i))}>
              Remove stage
            </button>
          </div>
        </fieldset>
      ))}
      <div class="row">
        <button type="button" class="quiet" onClick={add}>
          Add a stage
        </button>
        <button type="submit" disabled={action.busy}>
          Save stages
        </button>
        <button type="button" class="quiet" onClick={() => done(false)}>
          Cancel
        </button>
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}
