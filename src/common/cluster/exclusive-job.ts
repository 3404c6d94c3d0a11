import { DataSource, EntityManager } from 'typeorm';

/** Advisory-lock namespace of cluster-wide jobs (the first key of the two-key form). */
export const JOB_LOCK_SPACE = 74_210_010;

/**
 * Runs `work` on at most one instance at a time across the whole deployment: inside one transaction holding
 * `pg_try_advisory_xact_lock(JOB_LOCK_SPACE, hashtext(name))`. An instance that finds the lock taken skips this
 * round (`{ran: false}`) instead of waiting. The lock belongs to the transaction, so an instance that dies mid-job
 * loses it with its connection, its writes roll back, and the next round on any instance does the work: never twice
 * at once, never lost. Keep jobs idempotent and in batches so a round stays short.
 */
export async function runExclusive<R>(
  dataSource: DataSource,
  name: string,
  work: (manager: EntityManager) => Promise<R>,
): Promise<{ ran: boolean; result?: R }> {
  return dataSource.transaction(async (manager) => {
    // eslint-disable-next-line no-restricted-syntax -- infrastructure, no table: the job's advisory lock
    const [row] = (await manager.query('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked', [JOB_LOCK_SPACE, name])) as Array<{ locked: boolean }>;
    if (!row?.locked) return { ran: false };
    return { ran: true, result: await work(manager) };
  });
}
