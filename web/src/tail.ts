// The live event tail: GET /v2/events/stream read as it comes (fetch and a
// stream reader: EventSource cannot send the token), parsed by sse.ts. It
// reconnects when the stream ends or breaks (a server restarting, a client
// dropped for reading too slowly), waiting longer after each failure, and
// stops on a refusal that retrying cannot mend (a bad filter, a lost
// session, a forbidden role).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, openStream } from './api';
import { SseParser } from './sse';
import type { DeviceEvent } from './types';

export type TailState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface TailFilter {
  channelId?: string | undefined;
  deviceId?: string | undefined;
}

export interface Tail {
  state: TailState;
  /** why it is reconnecting or stopped */
  error: string | undefined;
}

/** Refusals worth trying again later: too many streams open, a server busy or going away. */
const RETRYABLE = new Set([0, 429, 502, 503, 504]);

const query = (filter: TailFilter) => {
  const params = new URLSearchParams();
  if (filter.channelId) params.set('channelId', filter.channelId);
  if (filter.deviceId) params.set('deviceId', filter.deviceId);
  const text = params.toString();
  return text ? `?${text}` : '';
};

/**
 * Follows the organization's new events (of a channel or device) while the
 * component is mounted; `onEvents` gets each batch, oldest first.
 */
export function useEventTail(filter: TailFilter, onEvents: (events: DeviceEvent[]) => void): Tail {
  const [state, setState] = useState<TailState>('connecting');
  const [error, setError] = useState<string>();
  const handler = useRef(onEvents);
  handler.current = onEvents;
  const path = `/v2/events/stream${query(filter)}`;

  useEffect(() => {
    const abort = new AbortController();
    let failures = 0;
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const run = async () => {
      while (!abort.signal.aborted) {
        setState(failures === 0 ? 'connecting' : 'reconnecting');
        try {
          const reader = (await openStream(path, abort.signal)).getReader();
          const decoder = new TextDecoder();
          const parser = new SseParser();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const events: DeviceEvent[] = [];
            for (const message of parser.push(decoder.decode(value, { stream: true }))) {
              if (message.event === 'ready') {
                failures = 0;
                setState('live');
                setError(undefined);
              } else if (message.event === 'event') events.push(JSON.parse(message.data) as DeviceEvent);
            }
            if (events.length) handler.current(events);
          }
          // the server ended it (shutting down): open it again, on whichever server answers
          setError('the server ended the stream');
        } catch (failure) {
          if (abort.signal.aborted) return;
          const status = failure instanceof ApiFailure ? failure.status : 0;
          setError(failure instanceof ApiFailure ? failure.message : 'the connection was lost');
          if (!RETRYABLE.has(status)) {
            setState('stopped');
            return;
          }
        }
        failures++;
        setState('reconnecting');
        await wait(Math.min(30_000, 500 * 2 ** Math.min(failures, 6)));
      }
    };
    void run();
    return () => abort.abort();
  }, [path]);

  return { state, error };
}
