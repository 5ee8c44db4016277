import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { get } from './api';
import { onLinkClick } from './router';
import { useAction, useResource } from './hooks';
import type { ApiKey, NewApiKey } from './types';

export function Link(props: { href: string; class?: string; children: ComponentChildren }) {
  return (
    <a href={props.href} class={props.class} onClick={onLinkClick}>
      {props.children}
    </a>
  );
}

export function ErrorNote({ error }: { error: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/**
 * A secret the server shows once (a new API key), with a copy button.
 * navigator.clipboard exists only in secure contexts (https or localhost):
 * elsewhere the text is selected and copied the older way.
 */
export function ShownOnce({ label, secret }: { label: string; secret: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (navigator.clipboard) await navigator.clipboard.writeText(secret);
    else {
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <div class="shown-once" role="status">
      <p>{label} It is shown this once: copy it now.</p>
      <input ref={input} readOnly value={secret} data-testid="new-key" onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

export interface KeyApi {
  list(): Promise<ApiKey[]>;
  create(name: string): Promise<NewApiKey>;
  setEnabled(id: string, enabled: boolean): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}

/** Inference keys (Settings) and channel keys (Channels) are managed the same way. */
export function KeyManager({ keys, named, resourceKey }: { keys: KeyApi; named: boolean; resourceKey: string }) {
  const listed = useResource(() => keys.list(), resourceKey);
  const action = useAction();
  const [created, setCreated] = useState<NewApiKey>();
  const [name, setName] = useState('');
  const act = (fn: () => Promise<unknown>) =>
    action.run(async () => {
      await fn();
      listed.reload();
    });
  return (
    <div class="keys">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            setCreated(await keys.create(name));
            setName('');
          });
        }}
      >
        {named && (
          <input
            placeholder="Key name"
            aria-label="Key name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
        <button type="submit" disabled={action.busy}>
          Create key
        </button>
      </form>
      {created && <ShownOnce label={`New key ${created.prefix}…`} secret={created.apiKey} />}
      <ErrorNote error={action.error ?? listed.error} />
      <table>
        <thead>
          <tr>
            {named && <th>Name</th>}
            <th>Key</th>
            <th>Status</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {listed.data?.map((key) => (
            <tr key={key.id} data-key-id={key.id}>
              {named && <td>{'name' in key ? key.name : ''}</td>}
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{key.enabled ? 'Enabled' : 'Disabled'}</td>
              <td>{new Date(key.createdAt).toLocaleString()}</td>
              <td class="actions">
                <button type="button" onClick={() => act(() => keys.setEnabled(key.id, !key.enabled))}>
                  {key.enabled ? 'Disable' : 'Enable'}
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={() => confirm(`Delete key ${key.prefix}…?`) && act(() => keys.remove(key.id))}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface Column<T> {
  title: string;
  cell: (item: T) => ComponentChildren;
}

/** A read-only list of an API collection ({data: [...]}). */
export function ResourceTable<T extends { id: string }>({
  path,
  columns,
  empty,
}: {
  path: string;
  columns: Column<T>[];
  empty: string;
}) {
  const { data, error } = useResource(() => get<{ data: T[] }>(path), path);
  return (
    <>
      <ErrorNote error={error} />
      {data && data.data.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <table>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.title}>{c.title}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data?.data.map((item) => (
              <tr key={item.id}>
                {columns.map((c) => (
                  <td key={c.title}>{c.cell(item)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
