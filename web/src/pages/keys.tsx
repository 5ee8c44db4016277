// API keys (under Settings, as in the platform's dashboard: docs/CONTRACT.md#console-names): the inference
// keys predict accepts. Admins and project managers only, as in the API.
import { del, get, post } from '../api';
import { KeyManager, type KeyApi } from '../components';
import { useIsManager } from '../me';
import type { Data, InferenceKey, NewInferenceKey } from '../types';

const inferenceKeys: KeyApi = {
  list: async () => (await get<Data<InferenceKey[]>>('/v2/inference/api-keys')).data,
  create: async (name) => (await post<Data<NewInferenceKey>>('/v2/inference/api-keys', { name })).data,
  setEnabled: (id, enabled) => post(`/v2/inference/api-keys/${id}/${enabled ? 'enable' : 'disable'}`),
  remove: (id) => del(`/v2/inference/api-keys/${id}`),
};

export function ApiKeys() {
  const manager = useIsManager();
  return (
    <>
      <h1>API keys</h1>
      {manager ? (
        <>
          <p class="muted">
            Inference API keys: send one as <code>Authorization: Bearer sk_…</code> to{' '}
            <code>POST /v1/models/:id/predict</code>.
          </p>
          <KeyManager keys={inferenceKeys} named resourceKey="inference-keys" />
        </>
      ) : (
        <p>Only admins and project managers manage API keys. Ask one of them for a key.</p>
      )}
    </>
  );
}
