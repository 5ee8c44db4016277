// A client of GET /v2/events/stream as the console reads it: fetch() with
// the Authorization header and the response body read as it comes, parsed
// by the console's own reader of server-sent events (web/src/sse.ts).
import { SseParser, type SseMessage } from '../../web/src/sse.js';
import type { Api } from './api.js';

interface StreamedEvent {
  id: string;
  organizationId: string;
  channelId: string;
  deviceId: string;
  serverReceivedAt: string;
  clientSentAt: string | null;
  payload: any;
}

export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** the error body of a refused stream */
  body: any;
  /** every message so far, in order */
  messages: SseMessage[];
  /** the `event` messages' data so far */
  events(): StreamedEvent[];
  /** the first message (already received or to come) that matches; rejects after `timeoutMs` */
  waitFor(match: (message: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** the first event that matches */
  waitForEvent(match: (event: StreamedEvent) => boolean, timeoutMs?: number): Promise<StreamedEvent>;
  /** resolves when the server ends the stream (rejects if the connection broke instead) */
  ended: Promise<void>;
  close(): void;
}

/** Opens the stream as `api`'s user (no token: unauthenticated); `query` like `?deviceId=…`. */
export async function openEventStream(
  api: Api,
  query = '',
  headers: Record<string, string> = {},
  path = '/v2/events/stream',
): Promise<EventStreamClient> {
  const abort = new AbortController();
  const res = await fetch(`${api.baseUrl}${path}${query}`, {
    headers: { ...(api.token && { authorization: `Bearer ${api.token}` }), ...headers },
    signal: abort.signal,
  });
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  let body: any;
  let ended: Promise<void> = Promise.resolve();
  if (!res.ok) {
    const text = await res.text();
    body = text ? JSON.parse(text) : undefined;
  } else {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        messages.push(...parser.push(value));
        for (const waiter of [...waiters]) waiter();
      }
    })();
    ended.catch(() => {});
  }
  const waitFor = (match: (message: SseMessage) => boolean, timeoutMs = 10_000) =>
    new Promise<SseMessage>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  const parse = (message: SseMessage) => JSON.parse(message.data) as StreamedEvent;
  return {
    status: res.status,
    headers: res.headers,
    body,
    messages,
    events: () => messages.filter((m) => m.event === 'event').map(parse),
    waitFor,
    waitForEvent: async (match, timeoutMs) =>
      parse(await waitFor((m) => m.event === 'event' && match(parse(m)), timeoutMs)),
    ended,
    close: () => abort.abort(),
  };
}
