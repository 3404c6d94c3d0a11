import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { EntityManager } from 'typeorm';
import { rejectedStatus } from '../../test/helpers/app-error.js';
import { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { DomainEvents } from '../events/index.js';
import type { UpdateThemeDto } from './dto/theme.dto.js';
import { Theme, type ThemeRole } from './entities/theme.entity.js';
import { ThemeAssetsService } from './theme-assets.service.js';
import { ThemesRepository } from './themes.repository.js';
import { ThemesService } from './themes.service.js';

const TENANT = '00000000-0000-0000-0000-000000000001';
const ctx = RequestContext.forTenant(TENANT);

/** The shop's themes in memory, as the repository's contract describes them. */
class FakeThemesRepository {
  rows: Theme[] = [];
  private seq = 0;

  transaction<R>(c: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return work(c.withManager({} as EntityManager));
  }
  list(): Promise<Theme[]> {
    return Promise.resolve([...this.rows]);
  }
  getOrThrow(_c: RequestContext, id: string): Promise<Theme> {
    const t = this.rows.find((r) => r.id === id);
    return t ? Promise.resolve(t) : Promise.reject(AppError.notFound('theme'));
  }
  lockAll(): Promise<Theme[]> {
    return Promise.resolve([...this.rows]);
  }
  demoteMain(): Promise<void> {
    for (const t of this.rows) if (t.role === 'main') t.role = 'unpublished';
    return Promise.resolve();
  }
  saveNameAndRole(_c: RequestContext, theme: Theme): Promise<void> {
    Object.assign(
      this.rows.find((r) => r.id === theme.id)!,
      { name: theme.name, role: theme.role },
    );
    return Promise.resolve();
  }
  makeMain(_c: RequestContext, id: string): Promise<void> {
    this.rows.find((r) => r.id === id)!.role = 'main';
    return Promise.resolve();
  }
  delete(_c: RequestContext, id: string): Promise<void> {
    this.rows = this.rows.filter((r) => r.id !== id);
    return Promise.resolve();
  }
  insert(_c: RequestContext, theme: { name: string; role: ThemeRole; key: string }): Promise<string> {
    return Promise.resolve(this.add(theme.name, theme.role, theme.key).id);
  }
  add(name: string, role: ThemeRole, key = 'cellar'): Theme {
    const t = Object.assign(new Theme(), {
      id: `th${++this.seq}`,
      tenantId: TENANT,
      name,
      role,
      themeKey: key,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, this.seq)),
    });
    this.rows.push(t);
    return t;
  }
}

/** Asset writes are the assets service's: recorded only. */
class FakeAssets {
  files: Array<{ themeId: string; count: number }> = [];
  dropped: string[] = [];
  insertFiles(_c: RequestContext, themeId: string, files: unknown[]): Promise<void> {
    this.files.push({ themeId, count: files.length });
    return Promise.resolve();
  }
  blobRefs(_c: RequestContext, themeId: string): Promise<string[]> {
    return Promise.resolve([`blob-of-${themeId}`]);
  }
  dropBlobs(refs: string[]): Promise<void> {
    this.dropped.push(...refs);
    return Promise.resolve();
  }
}

async function setUp() {
  const repo = new FakeThemesRepository();
  const assets = new FakeAssets();
  const emitted: Array<{ topic: string; payload: unknown }> = [];
  const events = { emit: (_c: RequestContext, topic: string, payload: unknown) => Promise.resolve(void emitted.push({ topic, payload })) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      ThemesService,
      { provide: ThemesRepository, useValue: repo },
      { provide: ThemeAssetsService, useValue: assets },
      { provide: DomainEvents, useValue: events },
    ],
  }).compile();
  return { themes: moduleRef.get(ThemesService), repo, assets, emitted };
}

const roles = (repo: FakeThemesRepository) => repo.rows.map((t) => [t.name, t.role]);

describe('ThemesService (repository faked)', () => {
  it('makes a theme main by demoting the old main one, and tells theme.published; unpublished on the main theme changes nothing', async () => {
    const { themes, repo, emitted } = await setUp();
    repo.add('A', 'main');
    const b = repo.add('B', 'unpublished');
    await themes.update(ctx, b.id, { role: 'main' } as UpdateThemeDto);
    expect(roles(repo)).toEqual([
      ['A', 'unpublished'],
      ['B', 'main'],
    ]);
    expect(emitted).toEqual([{ topic: 'theme.published', payload: { theme: { id: b.id, name: 'B', role: 'main' } } }]);
    await themes.update(ctx, b.id, { role: 'unpublished', name: 'B2' } as UpdateThemeDto);
    expect(roles(repo)).toEqual([
      ['A', 'unpublished'],
      ['B2', 'main'],
    ]);
    expect(emitted).toHaveLength(1);
  });

  it('refuses an unknown role with 422 and an unknown theme with 404', async () => {
    const { themes, repo } = await setUp();
    const a = repo.add('A', 'main');
    expect(await rejectedStatus(themes.update(ctx, a.id, { role: 'draft' } as unknown as UpdateThemeDto))).toBe(422);
    expect(await rejectedStatus(themes.update(ctx, 'th404', { name: 'x' } as UpdateThemeDto))).toBe(404);
  });

  it('never deletes the main theme (422); deleting another drops its asset bytes after the transaction', async () => {
    const { themes, repo, assets } = await setUp();
    const a = repo.add('A', 'main');
    const b = repo.add('B', 'unpublished');
    expect(await rejectedStatus(themes.delete(ctx, a.id))).toBe(422);
    await themes.delete(ctx, b.id);
    expect(roles(repo)).toEqual([['A', 'main']]);
    expect(assets.dropped).toEqual([`blob-of-${b.id}`]);
  });

  it('copies a library theme unpublished, or main when the shop has no main theme; an unknown key is 422', async () => {
    const { themes, repo, assets } = await setUp();
    const first = await themes.createFromLibrary(ctx, 'vineyard');
    expect(repo.rows.map((t) => t.themeKey)).toEqual(['vineyard']);
    expect(first.role).toBe('main');
    const second = await themes.createFromLibrary(ctx, 'cellar', '  My cellar ');
    expect([second.name, second.role]).toEqual(['My cellar', 'unpublished']);
    expect(assets.files.map((f) => f.themeId)).toEqual([first.id, second.id]);
    expect(assets.files.every((f) => f.count > 0)).toBe(true);
    expect(await rejectedStatus(themes.createFromLibrary(ctx, 'nope'))).toBe(422);
  });

  it('gives a shop without a main theme one when its themes are listed: its oldest theme, else the default theme', async () => {
    const { themes, repo } = await setUp();
    expect((await themes.list(ctx)).map((t) => [t.themeKey, t.role])).toEqual([['cellar', 'main']]);
    const other = await setUp();
    other.repo.add('old', 'unpublished');
    other.repo.add('new', 'unpublished');
    expect(roles(other.repo)).toEqual([
      ['old', 'unpublished'],
      ['new', 'unpublished'],
    ]);
    expect((await other.themes.list(ctx)).map((t) => [t.name, t.role])).toEqual([
      ['old', 'main'],
      ['new', 'unpublished'],
    ]);
    expect(repo.rows).toHaveLength(1);
  });
});
