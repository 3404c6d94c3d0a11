import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { RequestContext } from '../context/request-context.js';
import { AppError } from '../http/app-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID's text form (what a row id must be before it is looked up; anything else is a 404). */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** The manager of the open transaction, or the default one. */
export function managerOf(ctx: RequestContext, dataSource: DataSource): EntityManager {
  return ctx.manager ?? dataSource.manager;
}

export function repoOf<T extends ObjectLiteral>(ctx: RequestContext, dataSource: DataSource, entity: EntityTarget<T>): Repository<T> {
  return managerOf(ctx, dataSource).getRepository(entity);
}

/**
 * Loads a tenant-owned row by id or throws 404. The tenant filter is always added here, so a foreign id is
 * indistinguishable from an unknown one. Pass `lock` inside a transaction to take a row lock.
 */
export async function getOrThrow<T extends ObjectLiteral & { id: string; tenantId: string }>(
  ctx: RequestContext,
  dataSource: DataSource,
  entity: EntityTarget<T>,
  id: string,
  what: string,
  options: { lock?: 'pessimistic_write' } = {},
): Promise<T> {
  if (!UUID.test(id)) throw AppError.notFound(what);
  const qb = repoOf(ctx, dataSource, entity).createQueryBuilder('e').where('e.id = :id AND e.tenant_id = :tenant', { id, tenant: ctx.tenantId });
  if (options.lock) qb.setLock(options.lock);
  const row = await qb.getOne();
  if (!row) throw AppError.notFound(what);
  return row;
}

/** Runs `work` in one transaction with the context bound to it (reusing an open one). */
export async function inTransaction<R>(ctx: RequestContext, dataSource: DataSource, work: (txCtx: RequestContext) => Promise<R>): Promise<R> {
  if (ctx.manager?.queryRunner?.isTransactionActive) return work(ctx);
  return dataSource.transaction((manager) => work(ctx.withManager(manager)));
}

/** True for a PostgreSQL unique violation (optionally of one named constraint or index). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { driverError?: { code?: string; constraint?: string }; code?: string; constraint?: string };
  const code = e?.driverError?.code ?? e?.code;
  const name = e?.driverError?.constraint ?? e?.constraint;
  return code === '23505' && (!constraint || name === constraint);
}
