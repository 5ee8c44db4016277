// Before anything starts: are the ports free? A second server started on a
// port in use used to do all its work first (join the data directory's
// database as a replica, load every model, write its records beside the
// running server's) and only then find the port taken. Checked here by
// binding each port for a moment, in well under a second; the server's own
// listen (exclusive) still decides, should another process take it between.
import { createServer } from 'node:net';

export class PortInUseError extends Error {}

function tryBind(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** Throws PortInUseError naming the first port of `ports` another process holds; port 0 (any) is not checked. */
export async function ensurePortsFree(
  host: string,
  ports: ReadonlyArray<{ port: number; setting: string }>,
): Promise<void> {
  for (const { port, setting } of ports) {
    if (port === 0) continue;
    const error = await tryBind(host, port);
    if (error?.code === 'EADDRINUSE')
      throw new PortInUseError(`port ${port} on ${host} is in use (another server?); stop it or set ${setting}`);
    if (error?.code === 'EACCES')
      throw new PortInUseError(`port ${port} on ${host} is not permitted for this user; set ${setting}`);
  }
}
