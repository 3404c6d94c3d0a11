import type { EntityManager } from 'typeorm';

/**
 * Rows of an `UPDATE/DELETE ... RETURNING` through `EntityManager.query`: the postgres driver answers those with
 * `[rows, affectedCount]` (an INSERT or SELECT with the rows alone), so this normalises both shapes.
 */
export async function returning<T>(m: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const result: unknown = await m.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
