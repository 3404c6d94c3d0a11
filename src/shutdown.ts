import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { flushTraces } from './observability/tracing.js';

/** What a stop has to close; main.ts fills it in as the start progresses. */
export interface ShutdownTargets {
  app?: INestApplication;
  server?: Server;
  /** Runs last, after the app closed (the embedded PostgreSQL's stop). */
  finally?: () => Promise<void>;
}

/**
 * SIGTERM / SIGINT: stop accepting connections, let the requests in flight finish (up to `graceMs`; idle keep-alive
 * connections are closed as soon as they are idle), then close the app (workers stop, pools close), flush traces,
 * then `finally` (the embedded PostgreSQL, last), and exit 0. Installed first thing at start, so a signal during the
 * start closes what has been started so far. A second SIGINT exits at once (130).
 */
export function installGracefulShutdown(graceMs: number, log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): ShutdownTargets {
  const targets: ShutdownTargets = {};
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) {
      if (signal === 'SIGINT') process.exit(130);
      return;
    }
    closing = true;
    log(`${signal}: finishing requests and shutting down`);
    let code = 0;
    try {
      if (targets.server?.listening) await drain(targets.server, graceMs);
      await targets.app?.close();
    } catch (err) {
      code = 1;
      process.stderr.write(`shutdown: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    await flushTraces();
    try {
      await targets.finally?.();
    } catch (err) {
      code = 1;
      process.stderr.write(`shutdown: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return targets;
}

/** Stops listening and resolves when every connection has ended, or cuts them after `graceMs`. */
function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    };
    // responses written from now on carry `Connection: close`; idle keep-alive connections are closed meanwhile
    server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      server.closeAllConnections();
      finish();
    }, graceMs);
    server.close(() => finish());
    server.closeIdleConnections();
  });
}
