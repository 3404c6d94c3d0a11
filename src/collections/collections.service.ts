import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from '../common/cluster/cache-bus.js';
import type { RequestContext } from '../common/context/request-context.js';
import { isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { withTranslation } from '../common/i18n.js';
import { Page } from '../common/paging/page.js';
import { PageRequest } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { slugify } from '../tenancy/index.js';
import { Extensions, ProductCountSource } from '../extensions/index.js';
import { parseCollectionRules } from './collection-rules.js';
import { CollectionDto, CreateCollectionDto, mapCollection, UpdateCollectionDto } from './dto/collection.dto.js';
import { Collection, CollectionType } from './entities/collection.entity.js';
import { CollectionsRepository, type CollectionListFilter } from './collections.repository.js';
import { safeHtml, safeHtmlMember } from '../common/html/safe-html.js';

/**
 * Cache-bus topic of the shop's collections and their picked products (published by the tables' triggers at commit,
 * migration 1795709400000, and by this service after its own commit so the writer's next request sees its write).
 */
export const COLLECTIONS_CACHE_TOPIC = 'collections' as const;

const HANDLE_TAKEN = (handle: string) => AppError.unprocessable(`handle "${handle}" is already taken by another collection`);

/** Admin CRUD of collections; `products_count` comes from the catalogue (a `ProductCountSource`). */
@Injectable()
export class CollectionsService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly events: DomainEvents,
    private readonly extensions: Extensions,
    @Optional() private readonly bus?: CacheBus,
  ) {}

  /** After a write outside a caller's transaction: drops this instance's copies at once (the trigger tells the others). */
  private async changed(ctx: RequestContext): Promise<void> {
    if (!ctx.manager) await this.bus?.publish(COLLECTIONS_CACHE_TOPIC, ctx.tenantId);
  }

  /** Every collection of the shop, published or not, oldest first. */
  async list(ctx: RequestContext, page: PageRequest, filter: CollectionListFilter = {}): Promise<Page<CollectionDto>> {
    const rows = await this.repo.page(ctx, page, filter);
    const counts = await this.productsCounts(
      ctx,
      rows.items.map((r) => r.id),
    );
    return rows.map((c) => mapCollection(c, ctx, counts.get(c.id) ?? 0));
  }

  async get(ctx: RequestContext, id: string): Promise<CollectionDto> {
    return this.present(ctx, await this.find(ctx, id));
  }

  /** The tenant's collection row or 404. */
  find(ctx: RequestContext, id: string): Promise<Collection> {
    return this.repo.getOrThrow(ctx, id);
  }

  /** Products per collection from the `ProductCountSource` extension provider (the catalogue); 0 without one. */
  async productsCounts(ctx: RequestContext, ids: string[]): Promise<Map<string, number>> {
    const source = this.extensions.one(ProductCountSource);
    return source ? source.productsCounts(ctx, ids) : new Map(ids.map((id) => [id, 0]));
  }

  async create(ctx: RequestContext, dto: CreateCollectionDto): Promise<CollectionDto> {
    const type: CollectionType = (dto.collection_type as CollectionType | null | undefined) ?? 'manual';
    const title = dto.title.trim();
    const rulesJson = type === 'smart' ? checkedRules(dto.rules_json) : null;
    const build = (handle: string) =>
      this.repo.build(ctx, {
        tenantId: ctx.tenantId,
        handle,
        title: withTranslation({}, ctx.language, title),
        bodyHtml: dto.body_html == null ? {} : withTranslation({}, ctx.language, safeHtml(dto.body_html)),
        collectionType: type,
        published: dto.published ?? true,
        sortOrder: dto.sort_order ?? null,
        templateName: dto.template_name ?? null,
        rulesJson,
        metaTitle: dto.meta_title ?? null,
        metaDescription: dto.meta_description ?? null,
        imageSrc: null,
        imageAlt: null,
        imageWidth: null,
        imageHeight: null,
      });

    if (dto.handle != null) {
      await this.assertHandleFree(ctx, dto.handle);
      return this.save(ctx, build(dto.handle), dto.handle, 'collection.created');
    }
    // generated from the title: the first free `<slug>`, `<slug>-2`, ...; a concurrent taker makes us try again
    const base = slugify(title) || 'collection';
    for (let attempt = 0; ; attempt++) {
      const handle = await this.freeHandle(ctx, base);
      try {
        return await this.persist(ctx, build(handle), 'collection.created');
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 4) throw isUniqueViolation(err) ? HANDLE_TAKEN(handle) : err;
      }
    }
  }

  async update(ctx: RequestContext, id: string, dto: UpdateCollectionDto): Promise<CollectionDto> {
    const c = await this.find(ctx, id);
    if (dto.title !== undefined) {
      if (dto.title === null) throw AppError.unprocessable('title must not be null');
      c.title = withTranslation(c.title, ctx.language, dto.title.trim());
    }
    if (dto.handle !== undefined) {
      if (dto.handle === null) throw AppError.unprocessable('handle must not be null');
      if (dto.handle.toLowerCase() !== c.handle.toLowerCase()) await this.assertHandleFree(ctx, dto.handle);
      c.handle = dto.handle;
    }
    if (dto.body_html !== undefined) c.bodyHtml = withTranslation(c.bodyHtml, ctx.language, safeHtmlMember(dto.body_html));
    if (dto.published !== undefined && dto.published !== null) c.published = dto.published;
    if (dto.sort_order !== undefined) c.sortOrder = dto.sort_order;
    if (dto.template_name !== undefined) c.templateName = dto.template_name;
    if (dto.meta_title !== undefined) c.metaTitle = dto.meta_title;
    if (dto.meta_description !== undefined) c.metaDescription = dto.meta_description;
    // manual collections have no rules: the member is ignored for them
    if (dto.rules_json !== undefined && c.collectionType === 'smart') c.rulesJson = checkedRules(dto.rules_json);
    return this.save(ctx, c, c.handle, 'collection.updated');
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await this.repo.transaction(ctx, async (tx) => {
      if (!(await this.repo.delete(tx, id))) throw AppError.notFound('collection');
      await this.events.emit(tx, 'collection.deleted', { collection: { id } });
    });
    await this.changed(ctx);
  }

  private async present(ctx: RequestContext, c: Collection): Promise<CollectionDto> {
    const counts = await this.productsCounts(ctx, [c.id]);
    return mapCollection(c, ctx, counts.get(c.id) ?? 0);
  }

  /** Saves and records the domain event in one transaction. */
  private async persist(ctx: RequestContext, c: Collection, topic: 'collection.created' | 'collection.updated'): Promise<CollectionDto> {
    const dto = await this.repo.transaction(ctx, async (tx) => {
      const out = await this.present(tx, await this.repo.save(tx, c));
      await this.events.emit(tx, topic, { collection: out });
      return out;
    });
    await this.changed(ctx);
    return dto;
  }

  private async save(ctx: RequestContext, c: Collection, handle: string, topic: 'collection.created' | 'collection.updated'): Promise<CollectionDto> {
    try {
      return await this.persist(ctx, c, topic);
    } catch (err) {
      if (isUniqueViolation(err)) throw HANDLE_TAKEN(handle);
      throw err;
    }
  }

  private async assertHandleFree(ctx: RequestContext, handle: string): Promise<void> {
    if (await this.repo.handleTaken(ctx, handle)) throw HANDLE_TAKEN(handle);
  }

  private async freeHandle(ctx: RequestContext, base: string): Promise<string> {
    const taken = new Set(await this.repo.handlesLike(ctx, base));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }
}

/** Smart-collection rules: null clears them, anything else must be valid rules JSON. */
function checkedRules(text: string | null | undefined): string | null {
  if (text == null) return null;
  parseCollectionRules(text);
  return text;
}
