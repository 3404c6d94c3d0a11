import { createServer } from 'node:net';
import { StartError } from './database/embedded-postgres.js';

/**
 * Refuses to start on a port another process holds, before anything else starts (the embedded PostgreSQL, the
 * migrations): one line naming the port instead of an EADDRINUSE stack after the migrations. A probe listener is
 * opened and closed on HOST:PORT; PORT=0 (any free port) is never busy.
 */
export async function refuseBusyPort(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const problem = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
  if (!problem) return;
  if (problem.code === 'EADDRINUSE')
    throw new StartError(`port ${port} on ${host} is already in use (another server running?): stop it or start with another PORT`);
  throw new StartError(`cannot listen on ${host}:${port}: ${problem.code ?? problem.message}`);
}
