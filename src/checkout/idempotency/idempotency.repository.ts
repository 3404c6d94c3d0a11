import type { DataSource } from 'typeorm';

/**
 * The statements of `IdempotencyInterceptor` on `idempotency_keys`, each on its own (outside the request's
 * transaction: a claim must be visible to a concurrent retry at once). `ttl` and `stale` are PostgreSQL intervals.
 */

/** A key: per shop and caller. */
export interface IdempotencyKeyId {
  tenant: string;
  caller: string;
  key: string;
}

/** A key's row: the request it was first used with, and the sealed answer once `done`. */
export interface IdempotencyKeyRow {
  request_hash: string;
  state: string;
  response: { sealed: string } | null;
}

/**
 * Claims the key for this request (`in_progress`): a new key, or one past `ttl`, or an `in_progress` claim untouched
 * for `stale` (a crashed process). False when another request holds or answered it.
 */
export async function claimIdempotencyKey(ds: DataSource, id: IdempotencyKeyId, hash: string, ttl: string, stale: string): Promise<boolean> {
  const claimed: unknown[] = await ds.query(
    `INSERT INTO idempotency_keys (tenant_id, caller, key, request_hash, state) VALUES ($1, $2, $3, $4, 'in_progress')
     ON CONFLICT (tenant_id, caller, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, state = 'in_progress', response = NULL, created_at = now(), updated_at = now()
       WHERE idempotency_keys.created_at < now() - interval '${ttl}'
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.updated_at < now() - interval '${stale}')
     RETURNING 1`,
    [id.tenant, id.caller, id.key, hash],
  );
  return claimed.length > 0;
}

/** The key's row, or null when there is none (released by a failed first attempt). */
export async function idempotencyKeyRow(ds: DataSource, id: IdempotencyKeyId): Promise<IdempotencyKeyRow | null> {
  const [row]: IdempotencyKeyRow[] = await ds.query(
    `SELECT request_hash, state, response FROM idempotency_keys WHERE tenant_id = $1 AND caller = $2 AND key = $3`,
    [id.tenant, id.caller, id.key],
  );
  return row ?? null;
}

/** The key is `done` with its sealed answer. */
export async function finishIdempotencyKey(ds: DataSource, id: IdempotencyKeyId, sealed: { sealed: string }): Promise<void> {
  await ds.query(`UPDATE idempotency_keys SET state = 'done', response = $4::jsonb, updated_at = now() WHERE tenant_id = $1 AND caller = $2 AND key = $3`, [
    id.tenant,
    id.caller,
    id.key,
    JSON.stringify(sealed),
  ]);
}

/** A claim still in progress is given up (the first attempt failed: a retry runs again). */
export async function releaseIdempotencyKey(ds: DataSource, id: IdempotencyKeyId): Promise<void> {
  await ds.query(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND caller = $2 AND key = $3 AND state = 'in_progress'`, [id.tenant, id.caller, id.key]);
}

/** Deletes every key past `ttl`. */
export async function sweepIdempotencyKeys(ds: DataSource, ttl: string): Promise<void> {
  await ds.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '${ttl}'`);
}
