import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The lowest port of the kernel's ephemeral range (Linux), or null. A port the kernel hands out (`listen(0)`) is from
 * that range, and so is the local port of every outgoing connection: between a test's pick and its server's listen
 * (seconds: a process start) a connection of the same run (PostgreSQL clients, HTTP clients) could take it, and the
 * server failed with EADDRINUSE (seen once in `process.ops`). Ports below the range are never taken that way.
 */
function ephemeralLow(): number | null {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 12_000 ? low : null;
  } catch {
    return null;
  }
}

const LOW = ephemeralLow();

function tryListen(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(null));
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address() as { port: number };
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (for a server a test starts, or as a port nothing listens on):
 * below the ephemeral range where the system has one (a random free one from 10,000 up), else one the kernel picks.
 */
export async function freePort(): Promise<number> {
  if (LOW !== null) {
    for (let i = 0; i < 50; i++) {
      const port = await tryListen(10_000 + Math.floor(Math.random() * (LOW - 10_000)));
      if (port !== null) return port;
    }
  }
  const port = await tryListen(0);
  if (port === null) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}
