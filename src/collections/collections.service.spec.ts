import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { DeepPartial } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import type { PageRequest } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { Extensions, ProductCountSource } from '../extensions/index.js';
import { CollectionsRepository, type CollectionListFilter } from './collections.repository.js';
import { CollectionsService } from './collections.service.js';
import { Collection } from './entities/collection.entity.js';

const TENANT = '00000000-0000-0000-0000-000000000001';

/** Collections in memory, as the repository's contract describes them (handles unique without case). */
class FakeCollectionsRepository {
  rows: Collection[] = [];
  /** Handles a concurrent writer takes just before our next save (a unique violation then). */
  stolen: string[] = [];
  transactions = 0;
  private seq = 0;

  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    this.transactions++;
    return work(ctx);
  }
  page(_ctx: RequestContext, page: PageRequest, filter: CollectionListFilter): Promise<Page<Collection>> {
    const rows = this.rows.filter(
      (c) => (filter.published === undefined || c.published === filter.published) && (!filter.collectionType || c.collectionType === filter.collectionType),
    );
    return Promise.resolve(new Page(rows.slice(0, page.limit), page.limit, null));
  }
  getOrThrow(_ctx: RequestContext, id: string): Promise<Collection> {
    const c = this.rows.find((r) => r.id === id);
    return c ? Promise.resolve(c) : Promise.reject(AppError.notFound('collection'));
  }
  build(_ctx: RequestContext, fields: DeepPartial<Collection>): Collection {
    return Object.assign(new Collection(), fields);
  }
  save(ctx: RequestContext, c: Collection): Promise<Collection> {
    const stolen = this.stolen.shift();
    if (stolen !== undefined) this.rows.push(Object.assign(new Collection(), { id: `other-${stolen}`, tenantId: ctx.tenantId, handle: stolen }));
    if (this.rows.some((r) => r !== c && r.handle.toLowerCase() === c.handle.toLowerCase()))
      return Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' }));
    if (!c.id) {
      c.id = `c${++this.seq}`;
      c.createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, this.seq));
      c.updatedAt = null;
      this.rows.push(c);
    }
    return Promise.resolve(c);
  }
  delete(_ctx: RequestContext, id: string): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((r) => r.id !== id);
    return Promise.resolve(this.rows.length < before);
  }
  handleTaken(_ctx: RequestContext, handle: string): Promise<boolean> {
    return Promise.resolve(this.rows.some((r) => r.handle.toLowerCase() === handle.toLowerCase()));
  }
  handlesLike(_ctx: RequestContext, base: string): Promise<string[]> {
    const handles = this.rows.map((r) => r.handle.toLowerCase());
    return Promise.resolve(handles.filter((h) => h === base || h.startsWith(`${base}-`)));
  }
}

class FakeEvents {
  emitted: Array<{ topic: string; payload: unknown }> = [];
  emit(_ctx: RequestContext, topic: string, payload: unknown): Promise<void> {
    this.emitted.push({ topic, payload });
    return Promise.resolve();
  }
}

class FakeCounts extends ProductCountSource {
  productsCounts(_ctx: RequestContext, ids: string[]): Promise<Map<string, number>> {
    return Promise.resolve(new Map(ids.map((id) => [id, 7])));
  }
}

async function setup(counts: ProductCountSource | null = null) {
  const repo = new FakeCollectionsRepository();
  const events = new FakeEvents();
  const module = await Test.createTestingModule({
    providers: [
      CollectionsService,
      { provide: CollectionsRepository, useValue: repo },
      { provide: DomainEvents, useValue: events },
      { provide: Extensions, useValue: { one: () => counts } },
    ],
  }).compile();
  return { service: module.get(CollectionsService), repo, events };
}

const ctx = RequestContext.forTenant(TENANT);
const page: PageRequest = { limit: 50, after: null, fingerprint: 'f' };

/** The status and message of a rejected call. */
async function failure(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
}

describe('CollectionsService (repository faked)', () => {
  it('creates a manual collection with defaults, in one transaction with its event', async () => {
    const { service, repo, events } = await setup();
    const dto = await service.create(ctx, { title: '  Red wines ' });
    expect(dto).toMatchObject({ title: 'Red wines', handle: 'red-wines', collection_type: 'manual', published: true, rules_json: null, products_count: 0 });
    expect(repo.rows).toHaveLength(1);
    expect(repo.transactions).toBe(1);
    expect(events.emitted).toEqual([{ topic: 'collection.created', payload: { collection: dto } }]);
  });

  it('generates the first free handle from the title: <slug>, <slug>-2, ... (compared without case)', async () => {
    const { service } = await setup();
    expect((await service.create(ctx, { title: 'Rosé', handle: 'ROSE' })).handle).toBe('ROSE');
    expect((await service.create(ctx, { title: 'Rosé' })).handle).toBe('rose-2');
    expect((await service.create(ctx, { title: 'Rosé' })).handle).toBe('rose-3');
    expect((await service.create(ctx, { title: '!!!' })).handle).toBe('collection');
  });

  it('retries a generated handle a concurrent writer took, and gives up with 422 after five attempts', async () => {
    const { service, repo } = await setup();
    repo.stolen = ['sparkling'];
    expect((await service.create(ctx, { title: 'Sparkling' })).handle).toBe('sparkling-2');
    repo.stolen = ['white', 'white-2', 'white-3', 'white-4', 'white-5'];
    expect(await failure(service.create(ctx, { title: 'White' }))).toEqual({ status: 422, message: 'handle "white-5" is already taken by another collection' });
  });

  it('refuses a given handle that is taken (422), also when it differs only in case', async () => {
    const { service } = await setup();
    await service.create(ctx, { title: 'A', handle: 'dessert' });
    expect(await failure(service.create(ctx, { title: 'B', handle: 'Dessert' }))).toEqual({
      status: 422,
      message: 'handle "Dessert" is already taken by another collection',
    });
  });

  it('keeps rules only for smart collections and validates them', async () => {
    const { service } = await setup();
    const rules = '{"all":[{"field":"color","eq":"red"}]}';
    expect((await service.create(ctx, { title: 'S', collection_type: 'smart', rules_json: rules })).rules_json).toBe(rules);
    expect((await service.create(ctx, { title: 'M', rules_json: rules })).rules_json).toBeNull();
    expect((await failure(service.create(ctx, { title: 'X', collection_type: 'smart', rules_json: '{' }))).status).toBe(422);
    const manual = await service.create(ctx, { title: 'Manual' });
    expect((await service.update(ctx, manual.id, { rules_json: 'not json' })).rules_json).toBeNull();
  });

  it('updates: null title or handle is 422, the same handle in another case is not a conflict', async () => {
    const { service, events } = await setup();
    const c = await service.create(ctx, { title: 'Old', handle: 'old' });
    expect(await failure(service.update(ctx, c.id, { title: null }))).toEqual({ status: 422, message: 'title must not be null' });
    expect(await failure(service.update(ctx, c.id, { handle: null }))).toEqual({ status: 422, message: 'handle must not be null' });
    const updated = await service.update(ctx, c.id, { title: ' New ', handle: 'OLD', published: null });
    expect(updated).toMatchObject({ title: 'New', handle: 'OLD', published: true });
    expect(events.emitted.map((e) => e.topic)).toEqual(['collection.created', 'collection.updated']);
    expect((await failure(service.update(ctx, 'missing', { title: 'x' }))).status).toBe(404);
  });

  it('deletes with its event; an unknown id is 404 and emits nothing', async () => {
    const { service, repo, events } = await setup();
    const c = await service.create(ctx, { title: 'Gone' });
    await service.delete(ctx, c.id);
    expect(repo.rows).toEqual([]);
    expect(events.emitted.at(-1)).toEqual({ topic: 'collection.deleted', payload: { collection: { id: c.id } } });
    expect(await failure(service.delete(ctx, c.id))).toEqual({ status: 404, message: 'collection not found' });
    expect(events.emitted).toHaveLength(2);
  });

  it('lists with the filters and counts products through the ProductCountSource (0 without one)', async () => {
    const { service } = await setup(new FakeCounts());
    await service.create(ctx, { title: 'On', published: true });
    await service.create(ctx, { title: 'Off', published: false });
    const listed = await service.list(ctx, page, { published: false });
    expect(listed.items.map((c) => [c.title, c.products_count])).toEqual([['Off', 7]]);
    const bare = await setup();
    await bare.service.create(ctx, { title: 'On' });
    expect((await bare.service.list(ctx, page)).items.map((c) => c.products_count)).toEqual([0]);
  });
});
