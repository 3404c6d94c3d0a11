/**
 * The pool's acquire timeout (`DATABASE_ACQUIRE_TIMEOUT_MS`, pg-pool's `connectionTimeoutMillis`): no connection was free,
 * or none could be opened, in time. The error filter answers it 503 with `Retry-After` instead of letting requests queue.
 */
export function isPoolTimeout(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.message === 'timeout exceeded when trying to connect' || err.message === 'Connection terminated due to connection timeout';
}

/** Seconds a client is told to wait after a pool timeout. */
export const POOL_RETRY_AFTER_SECONDS = 1;
