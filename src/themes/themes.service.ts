import { DomainEvents } from '../events/index.js';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { getOrThrow, inTransaction, isUniqueViolation, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import type { UpdateThemeDto } from './dto/theme.dto.js';
import { Theme, THEME_ROLES, ThemeRole } from './entities/theme.entity.js';
import { DEFAULT_LIBRARY_THEME, listLibraryThemes, loadLibraryTheme } from './theme-library.js';
import { ThemeAssetsService } from './theme-assets.service.js';

/** Themes of a shop. Exactly one has role `main` at all times; role changes lock the shop's themes. */
@Injectable()
export class ThemesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly assets: ThemeAssetsService,
    private readonly events: DomainEvents,
  ) {}

  /** Every theme of the shop, oldest first (unpaged). A shop that predates themes gets its default one first. */
  async list(ctx: RequestContext): Promise<Theme[]> {
    let themes = await this.query(ctx);
    if (!themes.some((t) => t.role === 'main')) {
      await this.ensureMain(ctx);
      themes = await this.query(ctx);
    }
    return themes;
  }

  get(ctx: RequestContext, id: string): Promise<Theme> {
    return getOrThrow(ctx, this.dataSource, Theme, id, 'theme');
  }

  /** Name and role. `main` demotes the old main theme; `unpublished` on the main theme is a no-op. */
  async update(ctx: RequestContext, id: string, dto: UpdateThemeDto): Promise<Theme> {
    if (dto.role !== undefined && !(THEME_ROLES as readonly string[]).includes(dto.role))
      throw AppError.unprocessable(`role must be one of ${THEME_ROLES.join(', ')}`);
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const themes = await this.lockThemes(tx);
      const theme = themes.find((t) => t.id === id);
      if (!theme) throw AppError.notFound('theme');
      const manager = tx.manager!;
      if (dto.name !== undefined) theme.name = dto.name;
      if (dto.role === 'main' && theme.role !== 'main') {
        await manager.query(`UPDATE themes SET role = 'unpublished', updated_at = now() WHERE tenant_id = $1 AND role = 'main'`, [tx.tenantId]);
        theme.role = 'main';
        await this.events.emit(tx, 'theme.published', { theme: { id: theme.id, name: theme.name, role: theme.role } });
      }
      if (dto.name !== undefined || dto.role !== undefined) {
        await manager.query(`UPDATE themes SET name = $1, role = $2, updated_at = now() WHERE id = $3`, [theme.name, theme.role, theme.id]);
      }
      return getOrThrow(tx, this.dataSource, Theme, id, 'theme');
    });
  }

  /** Deletes an unpublished theme with all its assets and their bytes; the main theme cannot be deleted (422). */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    const refs = await inTransaction(ctx, this.dataSource, async (tx) => {
      const theme = (await this.lockThemes(tx)).find((t) => t.id === id);
      if (!theme) throw AppError.notFound('theme');
      if (theme.role === 'main') throw AppError.unprocessable('the main theme cannot be deleted; make another theme main first');
      const refs = await this.assets.blobRefs(tx, id);
      await tx.manager!.query(`DELETE FROM themes WHERE id = $1 AND tenant_id = $2`, [id, tx.tenantId]);
      return refs;
    });
    await this.assets.dropBlobs(refs);
  }

  /**
   * A copy of a library theme (`theme create --from KEY`): unpublished, unless the shop has no main theme yet.
   * Unknown key: 422.
   */
  async createFromLibrary(ctx: RequestContext, key: string, name?: string): Promise<Theme> {
    return this.create(ctx, key, { name, role: 'unpublished' });
  }

  /** The shop's default theme, as its main theme (called when a shop is created, inside that transaction). */
  async createDefault(ctx: RequestContext): Promise<Theme> {
    return this.create(ctx, DEFAULT_LIBRARY_THEME, { role: 'main' });
  }

  private async create(ctx: RequestContext, key: string, options: { name?: string; role: ThemeRole }): Promise<Theme> {
    const library = loadLibraryTheme(key);
    if (!library) throw AppError.unprocessable(`unknown library theme "${key}"; known: ${listLibraryThemes().join(', ')}`);
    const name = options.name?.trim() || library.name;
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const themes = await this.lockThemes(tx);
      const role: ThemeRole = options.role === 'main' || !themes.some((t) => t.role === 'main') ? 'main' : 'unpublished';
      if (role === 'main')
        await tx.manager!.query(`UPDATE themes SET role = 'unpublished', updated_at = now() WHERE tenant_id = $1 AND role = 'main'`, [tx.tenantId]);
      const [row] = (await tx.manager!.query(`INSERT INTO themes (tenant_id, name, role, theme_key) VALUES ($1, $2, $3, $4) RETURNING id`, [
        tx.tenantId,
        name,
        role,
        key,
      ])) as Array<{ id: string }>;
      await this.assets.insertFiles(tx, row.id, library.files);
      return getOrThrow(tx, this.dataSource, Theme, row.id, 'theme');
    });
  }

  /** A shop without a main theme (created before themes existed) gets its default one; concurrent callers agree. */
  private async ensureMain(ctx: RequestContext): Promise<void> {
    try {
      await inTransaction(ctx, this.dataSource, async (tx) => {
        const themes = await this.lockThemes(tx);
        if (themes.some((t) => t.role === 'main')) return;
        if (themes.length > 0) await tx.manager!.query(`UPDATE themes SET role = 'main', updated_at = now() WHERE id = $1`, [themes[0].id]);
        else await this.createDefault(tx);
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }

  /** Row locks on every theme of the shop, in id order (no deadlocks), oldest first in the result. */
  private async lockThemes(tx: RequestContext): Promise<Theme[]> {
    const themes = await tx
      .manager!.getRepository(Theme)
      .createQueryBuilder('t')
      .where('t.tenant_id = :tenant', { tenant: tx.tenantId })
      .orderBy('t.id')
      .setLock('for_no_key_update')
      .getMany();
    return themes.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  private query(ctx: RequestContext): Promise<Theme[]> {
    return managerOf(ctx, this.dataSource)
      .getRepository(Theme)
      .createQueryBuilder('t')
      .where('t.tenant_id = :tenant', { tenant: ctx.tenantId })
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
  }
}

export { listLibraryThemes };
