import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { StorefrontCatalogueService } from './storefront-catalogue.service.js';
import { WorkerPool } from '../common/workers/worker-pool.js';
import { FACTSHEET_TEXT_MAX, FACTSHEET_VALUE_MAX, pdfText, stripHtml } from './factsheet-text.js';
import { factsheetStampOf } from './repositories/factsheet.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_CACHED = 500;
/** The render pool: worker threads, renders waiting for one (beyond: 503 with Retry-After), and a render's longest run. */
export const FACTSHEET_POOL = { size: 2, maxQueued: 50, timeoutMs: 10_000 } as const;

/**
 * `GET /storefront/factsheets/{variant_id}.pdf`: a one-page PDF from the variant's data, generated with pdfkit and
 * cached (per variant, language and currency) until the variant or its product changes.
 *
 * The render never stalls the event loop (issue 30): its text is stripped in linear time, capped and its long words
 * broken (`factsheet-text.ts`) on the main thread, then pdfkit draws it in a worker thread (`factsheet-worker.mjs`, a
 * pool of FACTSHEET_POOL.size started on the first render; at most FACTSHEET_POOL.maxQueued renders wait, beyond
 * that and past a render's timeout the answer is 503 `factsheets_busy` with Retry-After).
 */
@Injectable()
export class FactsheetService implements OnModuleDestroy {
  private readonly cache = new Map<string, { stamp: string; pdf: Buffer }>();
  private readonly pool = new WorkerPool<FactsheetPage, Uint8Array>(new URL('./factsheet-worker.mjs', import.meta.url), {
    ...FACTSHEET_POOL,
    busyCode: 'factsheets_busy',
    label: 'factsheets',
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly catalogue: StorefrontCatalogueService,
  ) {}

  async factsheet(ctx: RequestContext, variantId: string): Promise<{ pdf: Buffer; etag: string }> {
    if (!UUID.test(variantId)) throw AppError.notFound('factsheet');
    const row = await factsheetStampOf(managerOf(ctx, this.dataSource), ctx.tenantId, variantId);
    if (!row) throw AppError.notFound('factsheet');
    const cacheKey = `${ctx.tenantId}/${variantId}/${ctx.language}/${ctx.activeCurrency.code}`;
    const stamp = new Date(row.stamp).toISOString();
    const etag = `"${Buffer.from(`${variantId}:${stamp}:${ctx.language}:${ctx.activeCurrency.code}`).toString('base64url')}"`;
    const hit = this.cache.get(cacheKey);
    if (hit && hit.stamp === stamp) return { pdf: hit.pdf, etag };
    const product = await this.catalogue.product(ctx, row.product_id);
    const variant = product.variants.find((v) => v.id === variantId);
    if (!variant) throw AppError.notFound('factsheet');
    const lines: Array<[string, string | number | null]> = [
      ['Producer', product.vendor],
      ['Variant', variant.title],
      ['SKU', variant.sku],
      ['Vintage', variant.year],
      ['Size', variant.size],
      ['Colour', variant.facets.color?.name ?? null],
      ['Region', variant.facets.region?.name ?? null],
      ['Area', variant.area],
      ['Country', variant.country],
      ['Alcohol', variant.alcohol_volume === null ? null : `${variant.alcohol_volume} % vol`],
      ['Price', `${variant.price.toFixed(2)} ${product.currency}`],
      ...variant.custom_fields.map((f) => [f.label ?? f.key ?? '', f.value] as [string, string | null]),
    ];
    const value = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : pdfText(String(v), FACTSHEET_VALUE_MAX));
    const page: FactsheetPage = {
      title: value(product.title),
      path: value(product.category_path.map((c) => c.name ?? '').join(' / ')),
      facts: lines.filter(([, v]) => v !== null && v !== '').map(([label, v]) => `${value(label)}: ${value(v)}`),
      text: pdfText(stripHtml(variant.description ?? product.summary_html ?? product.body_html ?? ''), FACTSHEET_TEXT_MAX),
    };
    const bytes = await this.pool.run(page);
    const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey, { stamp, pdf });
    return { pdf, etag };
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }
}

/** What the worker draws (`factsheet-worker.mjs`): every string already stripped, capped and with long words broken. */
export interface FactsheetPage {
  title: string;
  path: string;
  facts: string[];
  text: string;
}
