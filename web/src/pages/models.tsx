// Models: every model of the organization with its versions, their status
// followed live (polled: a version loads in the background after its upload,
// Initializing → Active, or Failed with the reason), uploads with a progress
// bar, deletion, and the way to try a version on an image.
import { useState } from 'preact/hooks';
import { del, get, post, upload } from '../api';
import { ErrorNote, Link } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import type { Data, Model, ModelWithVersions } from '../types';

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
        <ModelCard key={model.id} model={model} manager={manager} changed={models.reload} />
      ))}
      {models.data?.length === 0 && <p class="muted">No models yet.</p>}
    </>
  );
}

function ModelCard({ model, manager, changed }: { model: ModelWithVersions; manager: boolean; changed: () => void }) {
  const action = useAction();
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
            <tr key={v.id} data-version-id={v.id}>
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
