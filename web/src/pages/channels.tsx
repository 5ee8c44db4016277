// Channels, and for admins and project managers the API keys devices
// register with (a channel's first key comes with it, shown once).
import { useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { ErrorNote, KeyManager, ShownOnce, type KeyApi } from '../components';
import { useAction, useResource } from '../hooks';
import { useIsManager } from '../me';
import type { Channel, ChannelApiKey, Data, NewChannel, NewChannelApiKey } from '../types';

const TYPES: Array<Channel['type']> = ['iot', 'android', 'ios', 'gateway'];

const channelKeys = (channel: string): KeyApi => ({
  list: async () => (await get<Data<ChannelApiKey[]>>(`/v2/channels/${channel}/api-keys`)).data,
  create: async () => (await post<Data<NewChannelApiKey>>(`/v2/channels/${channel}/api-keys`)).data,
  setEnabled: (id, enabled) => post(`/v2/channels/${channel}/api-keys/${id}/${enabled ? 'enable' : 'disable'}`),
  remove: (id) => del(`/v2/channels/${channel}/api-keys/${id}`),
});

export function Channels() {
  const channels = useResource(async () => (await get<Data<Channel[]>>('/v2/channels')).data, 'channels');
  const manager = useIsManager();
  const action = useAction();
  const [created, setCreated] = useState<NewChannel>();
  const [open, setOpen] = useState<string>();
  return (
    <>
      <h1>Channels</h1>
      {manager && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const { name, type } = Object.fromEntries(new FormData(form));
            void action.run(async () => {
              setCreated((await post<Data<NewChannel>>('/v2/channels', { name, type })).data);
              form.reset();
              channels.reload();
            });
          }}
        >
          <input name="name" placeholder="New channel name" aria-label="New channel name" required />
          <select name="type" aria-label="Channel type">
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <button type="submit" disabled={action.busy}>
            Create channel
          </button>
        </form>
      )}
      {created?.apiKeys[0] && (
        <ShownOnce
          label={`Channel ${created.name} was created with its first API key.`}
          secret={created.apiKeys[0].apiKey}
        />
      )}
      <ErrorNote error={action.error ?? channels.error} />
      {channels.data?.length === 0 && <p class="muted">No channels yet.</p>}
      {channels.data?.map((channel) => (
        <section class="panel" key={channel.id} data-channel-name={channel.name}>
          <header>
            <h2>{channel.name}</h2>
            <span class="muted">
              {channel.type} · {channel.enabled ? 'enabled' : 'disabled'} · <code>{channel.id}</code>
            </span>
            {manager && (
              <button type="button" onClick={() => setOpen(open === channel.id ? undefined : channel.id)}>
                {open === channel.id ? 'Hide keys' : 'API keys'}
              </button>
            )}
          </header>
          {manager && open === channel.id && (
            <KeyManager keys={channelKeys(channel.id)} named={false} resourceKey={channel.id} />
          )}
        </section>
      ))}
    </>
  );
}
