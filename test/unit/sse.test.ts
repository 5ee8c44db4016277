// The console's reader of server-sent events (web/src/sse.ts), which the
// end-to-end tests of the live event stream read with too.
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../web/src/sse.js';

describe('SseParser', () => {
  it('reads named messages with ids, skipping comments', () => {
    const parser = new SseParser();
    expect(
      parser.push(
        ':ok\n\nevent: ready\ndata: {"pollMs":1000}\n\n: keep-alive\n\nid: 01J\nevent: event\ndata: {"a":1}\n\n',
      ),
    ).toEqual([
      { event: 'ready', data: '{"pollMs":1000}' },
      { event: 'event', data: '{"a":1}', id: '01J' },
    ]);
  });

  it('puts together a message split across chunks anywhere, \\r\\n included', () => {
    const text = 'event: event\r\ndata: {"b":2}\r\n\r\ndata: plain\rdata: two\r\r';
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser();
      const messages = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(messages, `cut at ${cut}`).toEqual([
        { event: 'event', data: '{"b":2}' },
        { event: 'message', data: 'plain\ntwo' },
      ]);
    }
  });

  it('dispatches nothing for a message without data, and keeps the last id', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\nevent: nothing\n\ndata: x\n\n')).toEqual([{ event: 'message', data: 'x', id: '7' }]);
  });
});
