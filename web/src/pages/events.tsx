// Events: a live tail of what devices send (GET /v2/events/stream, newest
// on top, a capped list that can be paused), and a search over the stored
// events (POST /v2/events: device, channel, time range, payload values),
// paged with sinceId. A device's page links here with ?deviceId=; a rule's
// delivery log with ?eventId= (and the device's id), the event shown on top.
import { useRef, useState } from 'preact/hooks';
import { get, post } from '../api';
import { ErrorNote } from '../components';
import { useResource } from '../hooks';
import { useEventTail, type TailFilter, type TailState } from '../tail';
import type { Channel, Data, DeviceEvent, Page } from '../types';
import { EventTable } from './event-table';

/** Events the tail shows at most (and holds while paused): the newest. */
const TAIL_CAP = 100;

const STATE_LABEL: Record<TailState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  stopped: 'Stopped',
};

function useChannels() {
  const channels = useResource(async () => (await get<Data<Channel[]>>('/v2/channels')).data, 'channels');
  const names = new Map(channels.data?.map((c) => [c.id, c.name]));
  return { list: channels.data ?? [], name: (id: string) => names.get(id) };
}

export function Events() {
  const query = new URLSearchParams(location.search);
  const deviceId = query.get('deviceId') ?? undefined;
  const eventId = query.get('eventId') ?? undefined;
  const channels = useChannels();
  return (
    <>
      <h1>Events</h1>
      {eventId && <LinkedEvent eventId={eventId} deviceId={deviceId} channels={channels} />}
      <LiveTail initial={{ deviceId }} channels={channels} />
      <EventSearch initialDeviceId={deviceId} channels={channels} />
    </>
  );
}

type Channels = ReturnType<typeof useChannels>;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** When an event id (a ULID) was made, in epoch milliseconds: its first ten characters; undefined for another id. */
function ulidTime(id: string): number | undefined {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(id)) return undefined;
  let ms = 0;
  for (const c of id.slice(0, 10).toUpperCase()) ms = ms * 32 + CROCKFORD.indexOf(c);
  return ms;
}

/** How far around its id's time an event is looked for: the server names an event as it receives it. */
const LINKED_WINDOW_MS = 5 * 60_000;

/** One event, linked from elsewhere (a rule's delivery): found among those received around the time its id names. */
function LinkedEvent({
  eventId,
  deviceId,
  channels,
}: {
  eventId: string;
  deviceId: string | undefined;
  channels: Channels;
}) {
  const found = useResource(async () => {
    const at = ulidTime(eventId);
    if (at === undefined) return null;
    const page = await post<Page<DeviceEvent>>('/v2/events', {
      deviceId,
      from: at - LINKED_WINDOW_MS,
      to: at + LINKED_WINDOW_MS,
      limit: 1000,
    });
    return page.data.find((e) => e.id === eventId) ?? null;
  }, `${eventId} ${deviceId}`);
  return (
    <section class="panel" aria-label="Linked event" data-testid="linked-event">
      <h2>
        Event <code class="id">{eventId}</code>
      </h2>
      <ErrorNote error={found.error} />
      {found.data === null && <p class="muted">Not found: it is gone, or no event of this organization has that id.</p>}
      {found.data && <EventTable events={[found.data]} channelName={channels.name} testId="linked-event-row" />}
    </section>
  );
}

// Fields are uncontrolled (defaultValue, selected): the tail re-renders on every event, and a
// controlled value would put back what the user is typing before the form is sent.
function ChannelSelect({ channels, value, name }: { channels: Channels; value?: string | undefined; name: string }) {
  return (
    <select name={name} aria-label="Channel">
      <option value="" selected={!value}>
        Any channel
      </option>
      {channels.list.map((c) => (
        <option key={c.id} value={c.id} selected={c.id === value}>
          {c.name}
        </option>
      ))}
    </select>
  );
}

/** A form's text field, trimmed; undefined when empty. */
const field = (form: FormData, name: string) => {
  const value = String(form.get(name) ?? '').trim();
  return value === '' ? undefined : value;
};

function LiveTail({ initial, channels }: { initial: TailFilter; channels: Channels }) {
  const [filter, setFilter] = useState<TailFilter>(initial);
  const [shown, setShown] = useState<DeviceEvent[]>([]);
  const [held, setHeld] = useState<DeviceEvent[]>([]);
  const [heldCount, setHeldCount] = useState(0);
  const [paused, setPaused] = useState(false);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const tail = useEventTail(filter, (events) => {
    const newest = [...events].reverse();
    if (pausedRef.current) {
      setHeld((list) => [...newest, ...list].slice(0, TAIL_CAP));
      setHeldCount((n) => n + events.length);
    } else setShown((list) => [...newest, ...list].slice(0, TAIL_CAP));
  });
  const resume = () => {
    setShown((list) => [...held, ...list].slice(0, TAIL_CAP));
    setHeld([]);
    setHeldCount(0);
    setPaused(false);
  };
  return (
    <section class="panel" aria-label="Live tail">
      <header>
        <h2>Live</h2>
        <span class={`tail-state ${tail.state}`} role="status" data-testid="tail-state" data-state={tail.state}>
          {STATE_LABEL[tail.state]}
        </span>
        {paused ? (
          <button type="button" onClick={resume}>
            Resume{heldCount > 0 && ` (${heldCount} new)`}
          </button>
        ) : (
          <button type="button" class="quiet" onClick={() => setPaused(true)}>
            Pause
          </button>
        )}
        <button type="button" class="quiet" onClick={() => setShown([])}>
          Clear
        </button>
      </header>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          setFilter({ channelId: field(form, 'channelId'), deviceId: field(form, 'deviceId') });
          setShown([]);
          setHeld([]);
          setHeldCount(0);
        }}
      >
        <ChannelSelect channels={channels} value={filter.channelId} name="channelId" />
        <input
          name="deviceId"
          aria-label="Tail device id"
          placeholder="Device id (any)"
          size={30}
          defaultValue={filter.deviceId ?? ''}
        />
        <button type="submit" class="quiet">
          Follow
        </button>
        <span class="muted">
          {paused
            ? 'Paused: new events are held, not shown.'
            : `The newest ${TAIL_CAP} events, newest first, as devices send them.`}
        </span>
      </form>
      {tail.state !== 'live' && <ErrorNote error={tail.error} />}
      {shown.length === 0 ? (
        <p class="muted" data-testid="tail-empty">
          {tail.state === 'live' ? 'Waiting for events…' : 'Not connected yet.'}
        </p>
      ) : (
        <EventTable events={shown} channelName={channels.name} testId="tail" />
      )}
    </section>
  );
}

interface Criteria {
  deviceId?: string | undefined;
  channelId?: string | undefined;
  datePath: 'serverReceivedAt' | 'clientSentAt';
  from?: string | undefined;
  to?: string | undefined;
  filter: Record<string, unknown>;
  order: 'desc' | 'asc';
  limit: number;
}

const PAGE_SIZES = [25, 50, 100];

/** A datetime-local value (the browser's time zone) as an ISO instant. */
const instant = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);

function EventSearch({ initialDeviceId, channels }: { initialDeviceId: string | undefined; channels: Channels }) {
  const [criteria, setCriteria] = useState<Criteria>({
    deviceId: initialDeviceId,
    datePath: 'serverReceivedAt',
    filter: {},
    order: 'desc',
    limit: PAGE_SIZES[0]!,
  });
  // the sinceId of each page before the current one (the first page has none)
  const [pages, setPages] = useState<Array<string | undefined>>([undefined]);
  const [formError, setFormError] = useState<string>();
  const sinceId = pages[pages.length - 1];
  const { order, limit, ...scope } = criteria;
  const results = useResource(
    () =>
      post<Page<DeviceEvent>>('/v2/events', {
        ...scope,
        limit,
        sort: { field: 'serverReceivedAt', order },
        ...(sinceId && { sinceId }),
      }),
    JSON.stringify([criteria, sinceId]),
  );
  const rows = results.data?.data ?? [];
  return (
    <section class="panel" aria-label="Search">
      <header>
        <h2>Search</h2>
      </header>
      <form
        class="search"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          let filter: Record<string, unknown> = {};
          const text = field(form, 'filter');
          if (text) {
            try {
              filter = JSON.parse(text) as Record<string, unknown>;
              if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw new Error();
            } catch {
              setFormError('Payload filter: a JSON object of paths and values, like {"data.kind": "alarm"}');
              return;
            }
          }
          setFormError(undefined);
          setPages([undefined]);
          setCriteria({
            deviceId: field(form, 'deviceId'),
            channelId: field(form, 'channelId'),
            datePath: form.get('datePath') === 'clientSentAt' ? 'clientSentAt' : 'serverReceivedAt',
            from: instant(field(form, 'from')),
            to: instant(field(form, 'to')),
            filter,
            order: form.get('order') === 'asc' ? 'asc' : 'desc',
            limit: Number(form.get('limit')),
          });
        }}
      >
        <label>
          Device id{' '}
          <input name="deviceId" aria-label="Search device id" size={30} defaultValue={criteria.deviceId ?? ''} />
        </label>
        <label>
          Channel <ChannelSelect channels={channels} value={criteria.channelId} name="channelId" />
        </label>
        <label>
          Time of{' '}
          <select name="datePath" aria-label="Time of">
            <option value="serverReceivedAt">arrival at the server</option>
            <option value="clientSentAt">sending by the device</option>
          </select>
        </label>
        <label>
          From <input type="datetime-local" step="1" name="from" aria-label="From" />
        </label>
        <label>
          To <input type="datetime-local" step="1" name="to" aria-label="To" />
        </label>
        <label class="wide">
          Payload filter{' '}
          <input name="filter" aria-label="Payload filter" placeholder='{"data.kind": "alarm"}' size={36} />
        </label>
        <label>
          Order{' '}
          <select name="order" aria-label="Order">
            <option value="desc">newest first</option>
            <option value="asc">oldest first</option>
          </select>
        </label>
        <label>
          Per page{' '}
          <select name="limit" aria-label="Per page">
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={formError ?? results.error} />
      {results.data && (
        <p class="muted" data-testid="search-summary">
          {results.data.meta.filteredTotal} matching of {results.data.meta.total} events
          {criteria.deviceId || criteria.channelId ? ' of this scope' : ''}; page {pages.length}
        </p>
      )}
      {results.data && rows.length === 0 ? (
        <p class="muted">No events match.</p>
      ) : (
        <EventTable events={rows} channelName={channels.name} testId="search-results" />
      )}
      <div class="pager">
        <button
          type="button"
          class="quiet"
          disabled={pages.length === 1}
          onClick={() => setPages((p) => p.slice(0, -1))}
        >
          Previous page
        </button>
        <button
          type="button"
          class="quiet"
          disabled={rows.length < limit}
          onClick={() => setPages((p) => [...p, rows[rows.length - 1]!.id])}
        >
          Next page
        </button>
      </div>
    </section>
  );
}
