import { Injectable } from '@nestjs/common';
import PDFDocument from 'pdfkit';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { StorefrontCatalogueService } from './storefront-catalogue.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_CACHED = 500;

/**
 * `GET /storefront/factsheets/{variant_id}.pdf`: a one-page PDF from the variant's data, generated with pdfkit and
 * cached (per variant, language and currency) until the variant or its product changes.
 */
@Injectable()
export class FactsheetService {
  private readonly cache = new Map<string, { stamp: string; pdf: Buffer }>();

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
    const pdf = await render((doc) => {
      doc.fontSize(20).text(product.title ?? '', { underline: false });
      doc.moveDown(0.5);
      if (product.category_path.length)
        doc
          .fontSize(10)
          .fillColor('#666')
          .text(product.category_path.map((c) => c.name ?? '').join(' / '));
      doc.moveDown();
      doc.fillColor('#000').fontSize(12);
      for (const [label, value] of lines) if (value !== null && value !== '') doc.text(`${label}: ${value}`);
      const text = stripHtml(variant.description ?? product.summary_html ?? product.body_html ?? '');
      if (text) {
        doc.moveDown();
        doc.fontSize(11).text(text);
      }
    });
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey, { stamp, pdf });
    return { pdf, etag };
  }
}

function stripHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function render(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: 'Factsheet' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}
