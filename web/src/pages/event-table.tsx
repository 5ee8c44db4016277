// Events as a table: the live tail's and the search's rows alike.
import { Link } from '../components';
import type { DeviceEvent } from '../types';

/** A payload shown on one line, cut short past this many characters (the whole of it in the title). */
const PAYLOAD_CHARS = 240;

export function EventTable({
  events,
  channelName,
  testId,
}: {
  events: DeviceEvent[];
  channelName?: (id: string) => string | undefined;
  testId: string;
}) {
  return (
    <table data-testid={testId}>
      <thead>
        <tr>
          <th>Received</th>
          <th>Device</th>
          <th>Channel</th>
          <th>Payload</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => {
          const payload = JSON.stringify(e.payload);
          return (
            <tr key={e.id} data-event-id={e.id}>
              <td class="nowrap">{new Date(e.serverReceivedAt).toLocaleString()}</td>
              <td>
                <Link href={`/devices/${e.deviceId}`}>
                  <code>{e.deviceId}</code>
                </Link>
              </td>
              <td>{channelName?.(e.channelId) ?? <code>{e.channelId}</code>}</td>
              <td>
                <code class="payload" title={payload.length > PAYLOAD_CHARS ? payload : undefined}>
                  {payload.length > PAYLOAD_CHARS ? `${payload.slice(0, PAYLOAD_CHARS)}…` : payload}
                </code>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
