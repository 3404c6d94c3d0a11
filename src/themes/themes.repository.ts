import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { getOrThrow, inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { Theme, type ThemeRole } from './entities/theme.entity.js';

/** The statements of `ThemesService` over `themes` (issue 36); the write methods take a context inside a transaction. */
@Injectable()
export class ThemesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in the context's open transaction, or in a new one. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** Every theme of the shop, oldest first (ties by id). */
  list(ctx: RequestContext): Promise<Theme[]> {
    return managerOf(ctx, this.dataSource)
      .getRepository(Theme)
      .createQueryBuilder('t')
      .where('t.tenant_id = :tenant', { tenant: ctx.tenantId })
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
  }

  /** The shop's theme `id`, or 404. */
  getOrThrow(ctx: RequestContext, id: string): Promise<Theme> {
    return getOrThrow(ctx, this.dataSource, Theme, id, 'theme');
  }

  /** Row locks on every theme of the shop, in id order (no deadlocks), oldest first in the result. */
  async lockAll(tx: RequestContext): Promise<Theme[]> {
    const themes = await tx
      .manager!.getRepository(Theme)
      .createQueryBuilder('t')
      .where('t.tenant_id = :tenant', { tenant: tx.tenantId })
      .orderBy('t.id')
      .setLock('for_no_key_update')
      .getMany();
    return themes.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  /** The shop's main theme (if any) becomes unpublished. */
  async demoteMain(tx: RequestContext): Promise<void> {
    await tx.manager!.query(`UPDATE themes SET role = 'unpublished', updated_at = now() WHERE tenant_id = $1 AND role = 'main'`, [tx.tenantId]);
  }

  /** Stores a theme's name and role. */
  async saveNameAndRole(tx: RequestContext, theme: Theme): Promise<void> {
    await tx.manager!.query(`UPDATE themes SET name = $1, role = $2, updated_at = now() WHERE id = $3`, [theme.name, theme.role, theme.id]);
  }

  /** Theme `id` becomes the main one (the caller demoted the old one, or there is none). */
  async makeMain(tx: RequestContext, id: string): Promise<void> {
    await tx.manager!.query(`UPDATE themes SET role = 'main', updated_at = now() WHERE id = $1`, [id]);
  }

  /** Deletes the shop's theme `id` (its assets cascade). */
  async delete(tx: RequestContext, id: string): Promise<void> {
    await tx.manager!.query(`DELETE FROM themes WHERE id = $1 AND tenant_id = $2`, [id, tx.tenantId]);
  }

  /** Inserts a theme of the shop made from library theme `key`; its id. */
  async insert(tx: RequestContext, theme: { name: string; role: ThemeRole; key: string }): Promise<string> {
    const rows: Array<{ id: string }> = await tx.manager!.query(`INSERT INTO themes (tenant_id, name, role, theme_key) VALUES ($1, $2, $3, $4) RETURNING id`, [
      tx.tenantId,
      theme.name,
      theme.role,
      theme.key,
    ]);
    return rows[0].id;
  }
}
