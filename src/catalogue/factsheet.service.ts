import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import PDFDocument from 'pdfkit';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { StorefrontCatalogueService } from './storefront-catalogue.service.js';
import { FACTSHEET_TEXT_MAX, FACTSHEET_VALUE_MAX, pdfText, slices, stripHtml } from './factsheet-text.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_CACHED = 500;
/** Characters drawn between two yields to the event loop (a few ms of pdfkit each). */
const SLICE = 400;
/** Renders waiting for their turn; beyond, 503 with Retry-After. */
const MAX_WAITING = 50;

/**
 * `GET /storefront/factsheets/{variant_id}.pdf`: a one-page PDF from the variant's data, generated with pdfkit and
 * cached (per variant, language and currency) until the variant or its product changes.
 *
 * The render is bounded so it never stalls the event loop (issue 30): its text is stripped in linear time, capped and
 * its long words broken (`factsheet-text.ts`); it is drawn in slices with a yield between them; one render runs at a
 * time per process (others wait their turn, at most MAX_WAITING); pdfkit is warmed up once at start.
 */
@Injectable()
export class FactsheetService implements OnApplicationBootstrap {
  private readonly cache = new Map<string, { stamp: string; pdf: Buffer }>();
  private turn: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly catalogue: StorefrontCatalogueService,
  ) {}

  async factsheet(ctx: RequestContext, variantId: string): Promise<{ pdf: Buffer; etag: string }> {
    if (!UUID.test(variantId)) throw AppError.notFound('factsheet');
    const [row] = await managerOf(ctx, this.dataSource).query(
      `SELECT v.product_id, greatest(v.created_at, v.updated_at, p.created_at, p.updated_at) AS stamp
       FROM variant_search vs JOIN variants v ON v.tenant_id = vs.tenant_id AND v.id = vs.variant_id JOIN products p ON p.tenant_id = v.tenant_id AND p.id = v.product_id
       WHERE vs.tenant_id = $1 AND vs.variant_id = $2`,
      [ctx.tenantId, variantId],
    );
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
    const pdf = await this.inTurn(() => render(page));
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey, { stamp, pdf });
    return { pdf, etag };
  }

  /** Runs renders one after another; a full queue is 503. */
  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    if (this.waiting >= MAX_WAITING) throw new AppError(503, 'factsheets are busy, retry shortly', 'factsheets_busy', { 'Retry-After': '1' });
    this.waiting++;
    const run = this.turn.then(fn).finally(() => this.waiting--);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** pdfkit's first document parses its font metrics and compiles its code paths (~100 ms): done once at start. */
  async onApplicationBootstrap(): Promise<void> {
    await render({ title: 'warm-up', path: '', facts: ['a: b'], text: 'warm up '.repeat(100) });
  }
}

interface FactsheetPage {
  title: string;
  path: string;
  facts: string[];
  text: string;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function render(page: FactsheetPage): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: 'Factsheet' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(20).text(page.title, { underline: false });
  doc.moveDown(0.5);
  if (page.path) doc.fontSize(10).fillColor('#666').text(page.path);
  doc.moveDown();
  doc.fillColor('#000').fontSize(12);
  for (const fact of page.facts) doc.text(fact);
  if (page.text) {
    doc.moveDown();
    doc.fontSize(11);
    const parts = slices(page.text, SLICE);
    for (let i = 0; i < parts.length; i++) {
      await nextTurn();
      doc.text(parts[i]!, { continued: i < parts.length - 1 });
    }
  }
  await nextTurn();
  doc.end();
  return done;
}
