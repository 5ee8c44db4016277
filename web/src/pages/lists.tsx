// Projects: listed, and created by admins and project managers. Devices and
// Events have pages of their own (devices.tsx, events.tsx).
import { useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorNote, ResourceTable, type Column } from '../components';
import { useAction } from '../hooks';
import { useIsManager } from '../me';

interface Named {
  id: string;
  name: string | null;
  createdAt: string;
}

const created: Column<Named> = { title: 'Created', cell: (item) => new Date(item.createdAt).toLocaleString() };
const name: Column<Named> = { title: 'Name', cell: (item) => item.name ?? '—' };
const id: Column<{ id: string }> = { title: 'Id', cell: (item) => <code>{item.id}</code> };

export function Projects() {
  const manager = useIsManager();
  const action = useAction();
  // a new project lists it again: the table is keyed by this count
  const [added, setAdded] = useState(0);
  return (
    <>
      <h1>Projects</h1>
      {manager && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const { name } = Object.fromEntries(new FormData(form));
            void action.run(async () => {
              await post('/v2/projects', { name });
              form.reset();
              setAdded((n) => n + 1);
            });
          }}
        >
          <input name="name" placeholder="New project name" aria-label="New project name" required />
          <button type="submit" disabled={action.busy}>
            Create project
          </button>
        </form>
      )}
      <ErrorNote error={action.error} />
      <ResourceTable<Named & { enabled: boolean; channelIds: string[] }>
        key={added}
        path="/v2/projects"
        empty="No projects yet."
        columns={[
          name,
          { title: 'Channels', cell: (p) => p.channelIds.length },
          { title: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
          id,
          created,
        ]}
      />
    </>
  );
}
