// Devices: the organization's devices (POST /v2/devices/search, by name,
// paged), and a device's page: its fields, tags and state (whether it is
// connected over MQTT, and since when), its last location on the tile-less
// map the landmarks page uses, and its recent events, with a link to follow
// it live on the Events page.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { ErrorNote, Link } from '../components';
import { useResource } from '../hooks';
import { metresPerPixel, toScreen, type View } from '../map';
import { Grid, MAP_WIDTH, storedTiles, Tiles } from '../map-view';
import type { Channel, Data, Device, DeviceEvent, LastLocation, Page } from '../types';
import { CameraPanel } from './camera';
import { EventTable } from './event-table';

const PAGE = 25;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function Devices() {
  const [name, setName] = useState('');
  const [offset, setOffset] = useState(0);
  const devices = useResource(
    () =>
      post<Page<Device>>('/v2/devices/search', {
        limit: PAGE,
        offset,
        sort: { field: 'createdAt', order: 'desc' },
        filter: name ? { name } : {},
      }),
    JSON.stringify([name, offset]),
  );
  const rows = devices.data?.data ?? [];
  return (
    <>
      <h1>Devices</h1>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setName(String(new FormData(e.currentTarget).get('name') ?? '').trim());
          setOffset(0);
        }}
      >
        <input name="name" aria-label="Device name" placeholder="Name contains…" />
        <button type="submit" class="quiet">
          Find
        </button>
        {devices.data && (
          <span class="muted">
            {devices.data.meta.filteredTotal} of {devices.data.meta.total} devices
          </span>
        )}
      </form>
      <ErrorNote error={devices.error} />
      {devices.data && rows.length === 0 ? (
        <p class="muted">{name ? 'No device has such a name.' : 'No devices have registered yet.'}</p>
      ) : (
        <table data-testid="devices">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>Model</th>
              <th>Tags</th>
              <th>Last seen</th>
              <th>Last location</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} data-device-id={d.id}>
                <td>
                  <Link href={`/devices/${d.id}`}>{d.name ?? <code>{d.id}</code>}</Link>
                </td>
                <td>{d.type ?? '—'}</td>
                <td>{d.model ?? '—'}</td>
                <td>{d.tags.join(', ') || '—'}</td>
                <td>{when(d.lastSeenAt)}</td>
                <td>{d.lastLocation ? coordinates(d.lastLocation) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="pager">
        <button
          type="button"
          class="quiet"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - PAGE))}
        >
          Previous page
        </button>
        <button
          type="button"
          class="quiet"
          disabled={offset + rows.length >= (devices.data?.meta.filteredTotal ?? 0)}
          onClick={() => setOffset(offset + PAGE)}
        >
          Next page
        </button>
      </div>
    </>
  );
}

/** Latitude, longitude with five decimals (about a metre). */
const coordinates = (l: LastLocation) => `${l.latitude.toFixed(5)}, ${l.longitude.toFixed(5)}`;

/** MQTT's protocol levels as people name them. */
const MQTT_VERSIONS: Record<number, string> = { 3: '3.1', 4: '3.1.1', 5: '5' };

/** Whether the device holds a connection open to a live server (the page shows it as read; Refresh reads it again). */
function connectionText(connection: Device['connection']): string {
  if (!connection) return 'Not connected';
  const version = MQTT_VERSIONS[connection.protocolVersion] ?? String(connection.protocolVersion);
  return `Connected over MQTT since ${when(connection.connectedAt)} (MQTT ${version})`;
}

/** A device's name, or what it is and the end of its id ("Pixel 8 · …4Q7Z9K"): "Unnamed device" told one from another on no page. */
function deviceTitle(d: Device): string {
  return d.name ?? `${d.model ?? d.type ?? 'Device'} · …${d.id.slice(-6)}`;
}

export function DeviceDetail({ deviceId }: { deviceId: string }) {
  const device = useResource(
    async () => (await get<Data<Device>>(`/v2/devices/${encodeURIComponent(deviceId)}`)).data,
    deviceId,
  );
  const events = useResource(() => post<Page<DeviceEvent>>('/v2/events', { deviceId, limit: 20 }), deviceId);
  const channels = useResource(async () => (await get<Data<Channel[]>>('/v2/channels')).data, 'channels');
  const d = device.data;
  const channel = d && channels.data?.find((c) => c.id === d.channelId);
  return (
    <>
      <p class="muted">
        <Link href="/devices">Devices</Link> /
      </p>
      <h1>{d ? deviceTitle(d) : 'Device'}</h1>
      <ErrorNote error={device.error} />
      {d && (
        <>
          <div class="device">
            <dl class="fields" data-testid="device-fields">
              <dt>Id</dt>
              <dd>
                <code>{d.id}</code>
              </dd>
              <dt>Channel</dt>
              <dd>{channel ? `${channel.name} (${channel.type})` : <code>{d.channelId}</code>}</dd>
              <dt>Type</dt>
              <dd>{d.type ?? '—'}</dd>
              <dt>Model</dt>
              <dd>{d.model ?? '—'}</dd>
              <dt>Sensors</dt>
              <dd>{d.sensors.join(', ') || '—'}</dd>
              <dt>Tags</dt>
              <dd data-testid="device-tags">
                {d.tags.length
                  ? d.tags.map((t) => (
                      <span key={t} class="tag">
                        {t}
                      </span>
                    ))
                  : '—'}
              </dd>
              <dt>Registered</dt>
              <dd>{when(d.createdAt)}</dd>
              <dt>Updated</dt>
              <dd>{when(d.updatedAt)}</dd>
              <dt>Last seen</dt>
              <dd data-testid="last-seen">{d.lastSeenAt ? when(d.lastSeenAt) : 'never: no event yet'}</dd>
              <dt>Connection</dt>
              <dd data-testid="device-connection">{connectionText(d.connection)}</dd>
              <dt>Inside landmarks</dt>
              <dd>{d.insideLandmarkIds.length ? d.insideLandmarkIds.map((id) => <code key={id}>{id} </code>) : '—'}</dd>
            </dl>
            <section class="panel location" aria-label="Last location">
              <h2>Last location</h2>
              {d.lastLocation ? (
                <>
                  <LocationMap location={d.lastLocation} />
                  <p data-testid="last-location">
                    <strong>{coordinates(d.lastLocation)}</strong>
                    {d.lastLocation.accuracy !== undefined && ` ± ${Math.round(d.lastLocation.accuracy)} m`}
                    {d.lastLocation.timestamp !== undefined && (
                      <span class="muted"> · reported {new Date(d.lastLocation.timestamp).toLocaleString()}</span>
                    )}
                  </p>
                </>
              ) : (
                <p class="muted" data-testid="last-location">
                  No location yet: none of its events carried one.
                </p>
              )}
            </section>
          </div>
          <CameraPanel deviceId={deviceId} camera={d.camera} recent={events.data?.data ?? []} onMade={device.reload} />
          <details>
            <summary>Properties and attributes</summary>
            <pre data-testid="device-properties">
              {JSON.stringify({ properties: d.properties, attributes: d.attributes }, null, 2)}
            </pre>
          </details>
        </>
      )}
      <section class="panel" aria-label="Recent events">
        <header>
          <h2>Recent events</h2>
          <button
            type="button"
            class="quiet"
            onClick={() => {
              device.reload();
              events.reload();
            }}
          >
            Refresh
          </button>
          <Link href={`/events?deviceId=${deviceId}`}>Follow live and search</Link>
        </header>
        <ErrorNote error={events.error} />
        {events.data && events.data.data.length === 0 ? (
          <p class="muted">No events yet.</p>
        ) : (
          <EventTable
            events={events.data?.data ?? []}
            channelName={(id) => channels.data?.find((c) => c.id === id)?.name}
            testId="device-events"
          />
        )}
      </section>
    </>
  );
}

const LOCATION_HEIGHT = 360;

/** The last location on the landmarks page's map (a grid without tiles), with its accuracy as a circle. */
function LocationMap({ location }: { location: LastLocation }) {
  // street level: a block or two around it, where an accuracy of tens of metres shows as a circle
  const [zoom, setZoom] = useState(17);
  const center = { lat: location.latitude, lon: location.longitude };
  const view: View = { center, zoom, width: MAP_WIDTH, height: LOCATION_HEIGHT };
  const [x, y] = toScreen(view, center);
  const accuracy = location.accuracy ? location.accuracy / metresPerPixel(view, center.lat) : 0;
  return (
    <div class="map">
      <svg
        viewBox={`0 0 ${MAP_WIDTH} ${LOCATION_HEIGHT}`}
        data-testid="device-map"
        role="img"
        aria-label={`last location ${coordinates(location)}`}
      >
        <rect class="sea" width={MAP_WIDTH} height={LOCATION_HEIGHT} />
        <Tiles view={view} template={storedTiles()} />
        <Grid view={view} />
        {accuracy > 0 && <circle class="accuracy" cx={x} cy={y} r={accuracy} />}
        <circle class="marker" cx={x} cy={y} r={7} data-lat={location.latitude} data-lon={location.longitude} />
      </svg>
      <div class="map-status muted">
        <button type="button" class="quiet" onClick={() => setZoom(Math.min(19, zoom + 1))}>
          +
        </button>
        <button type="button" class="quiet" onClick={() => setZoom(Math.max(1, zoom - 1))}>
          −
        </button>{' '}
        zoom {zoom}
      </div>
    </div>
  );
}
