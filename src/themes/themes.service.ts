import { DomainEvents } from '../events/index.js';
import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import type { UpdateThemeDto } from './dto/theme.dto.js';
import { Theme, THEME_ROLES, ThemeRole } from './entities/theme.entity.js';
import { DEFAULT_LIBRARY_THEME, listLibraryThemes, loadLibraryTheme } from './theme-library.js';
import { ThemeAssetsService } from './theme-assets.service.js';
import { ThemesRepository } from './themes.repository.js';

/** Themes of a shop. Exactly one has role `main` at all times; role changes lock the shop's themes. */
@Injectable()
export class ThemesService {
  constructor(
    private readonly repo: ThemesRepository,
    private readonly assets: ThemeAssetsService,
    private readonly events: DomainEvents,
  ) {}

  /** Every theme of the shop, oldest first (unpaged). A shop that predates themes gets its default one first. */
  async list(ctx: RequestContext): Promise<Theme[]> {
    let themes = await this.repo.list(ctx);
    if (!themes.some((t) => t.role === 'main')) {
      await this.ensureMain(ctx);
      themes = await this.repo.list(ctx);
    }
    return themes;
  }

  get(ctx: RequestContext, id: string): Promise<Theme> {
    return this.repo.getOrThrow(ctx, id);
  }

  /** Name and role. `main` demotes the old main theme; `unpublished` on the main theme is a no-op. */
  async update(ctx: RequestContext, id: string, dto: UpdateThemeDto): Promise<Theme> {
    if (dto.role !== undefined && !(THEME_ROLES as readonly string[]).includes(dto.role))
      throw AppError.unprocessable(`role must be one of ${THEME_ROLES.join(', ')}`);
    return this.repo.transaction(ctx, async (tx) => {
      const themes = await this.repo.lockAll(tx);
      const theme = themes.find((t) => t.id === id);
      if (!theme) throw AppError.notFound('theme');
      if (dto.name !== undefined) theme.name = dto.name;
      if (dto.role === 'main' && theme.role !== 'main') {
        await this.repo.demoteMain(tx);
        theme.role = 'main';
        await this.events.emit(tx, 'theme.published', { theme: { id: theme.id, name: theme.name, role: theme.role } });
      }
      if (dto.name !== undefined || dto.role !== undefined) {
        await this.repo.saveNameAndRole(tx, theme);
      }
      return this.repo.getOrThrow(tx, id);
    });
  }

  /** Deletes an unpublished theme with all its assets and their bytes; the main theme cannot be deleted (422). */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    const refs = await this.repo.transaction(ctx, async (tx) => {
      const theme = (await this.repo.lockAll(tx)).find((t) => t.id === id);
      if (!theme) throw AppError.notFound('theme');
      if (theme.role === 'main') throw AppError.unprocessable('the main theme cannot be deleted; make another theme main first');
      const refs = await this.assets.blobRefs(tx, id);
      await this.repo.delete(tx, id);
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
    return this.repo.transaction(ctx, async (tx) => {
      const themes = await this.repo.lockAll(tx);
      const role: ThemeRole = options.role === 'main' || !themes.some((t) => t.role === 'main') ? 'main' : 'unpublished';
      if (role === 'main') await this.repo.demoteMain(tx);
      const id = await this.repo.insert(tx, { name, role, key });
      await this.assets.insertFiles(tx, id, library.files);
      return this.repo.getOrThrow(tx, id);
    });
  }

  /** A shop without a main theme (created before themes existed) gets its default one; concurrent callers agree. */
  private async ensureMain(ctx: RequestContext): Promise<void> {
    try {
      await this.repo.transaction(ctx, async (tx) => {
        const themes = await this.repo.lockAll(tx);
        if (themes.some((t) => t.role === 'main')) return;
        if (themes.length > 0) await this.repo.makeMain(tx, themes[0].id);
        else await this.createDefault(tx);
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
}

export { listLibraryThemes };
