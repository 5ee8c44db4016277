// Mobile clients posting events as fast as the servers answer, each event
// numbered by its timestamp, until stopped: the durability tests kill a
// server in the middle and check that every acknowledged event was kept.
export interface EventLoad {
  /** timestamps of the events answered 204 before stop() */
  readonly acked: number[];
  /** Stops counting acknowledgements at once; resolves when every client has returned. */
  stop(): Promise<void>;
}

/**
 * `clients` loops posting `{timestamp, attributes}` to the server `target()`
 * names for each request (one server, or the next of several). A request
 * that fails (its server was killed) is not acknowledged, and its client
 * goes on with the next one.
 */
export function postEvents(
  target: () => string,
  deviceToken: string,
  attributes: Record<string, string>,
  clients = 16,
): EventLoad {
  const acked: number[] = [];
  // Client times the server accepts (2000 to a day ahead), one millisecond apart.
  let next = Date.now() - 86_400_000;
  let stopped = false;
  const client = async () => {
    while (!stopped) {
      const timestamp = next++;
      try {
        const res = await fetch(`${target()}/v1/mobile/events`, {
          method: 'POST',
          headers: { authorization: deviceToken, 'content-type': 'application/json' },
          body: JSON.stringify({ timestamp, attributes }),
        });
        // An acknowledgement that arrives after stop() is left out: the
        // caller may have killed the server meanwhile, and only counts what
        // it was told before.
        if (res.status === 204 && !stopped) acked.push(timestamp);
      } catch {
        // the server is gone: this event was never acknowledged
      }
    }
  };
  const running = Array.from({ length: clients }, client);
  return {
    acked,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}
