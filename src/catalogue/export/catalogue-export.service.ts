import { HttpStatus, Injectable, Logger, Optional } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import type { RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/http/app-error.js';
import { collectionRecordsOf } from '../../collections/index.js';
import { exportTax, exportVariantTaxes } from '../../tax/index.js';
import { countryRecordsOf, currencyRecordsOf, tenantSettingsOf } from '../../tenancy/index.js';
import { destinationRulesDocument, shippingMethodsDocument } from '../../shipping/index.js';
import { SearchSynonymsAdmin } from '../../search-synonyms/index.js';
import { FACET_DIMENSIONS } from '../entities/catalogue.entities.js';
import {
  beginExportSnapshot,
  collectionPicks,
  commitExportSnapshot,
  exportCategories,
  exportCustomFieldOptions,
  exportCustomFields,
  exportFacetValues,
  exportFlags,
  exportManufacturers,
  exportPaymentTypes,
  exportStockLocations,
  liveProductBatch,
  rollbackExportSnapshot,
} from '../repositories/catalogue-export.repository.js';
import { readProductDocuments } from './catalogue-document.js';
import { ExportSlots } from './export-slots.js';
import { ExportSpool, ExportStalled } from './export-spool.js';

export type ExportFormat = 'json' | 'ndjson';

/** Products read and written per step: memory stays bounded by one batch whatever the catalogue's size. */
const PRODUCT_BATCH = 200;

/**
 * `GET /admin/catalogue/export`: the whole catalogue as the CONTRACT 6 import document, from one consistent snapshot
 * (a read-only REPEATABLE READ transaction). `json` is the document itself; `ndjson` is one fragment per line
 * (`{"settings": …}`, `{"currencies": […]}`, …, then `{"products": [one product]}` per product and
 * `{"collections": [one]}` per collection): concatenating the fragments' arrays gives the document. Archived
 * products and variants are left out. Importing the document into another shop copies the catalogue.
 *
 * The snapshot is read batch by batch into a spool file (`export-spool.ts`), and the connection goes back to the pool
 * before the first byte is sent: a client that stops reading holds a file, never a connection or a transaction. At most
 * `EXPORT_CONCURRENCY_PER_TENANT` exports per shop run at once (429 beyond); `EXPORT_STALL_TIMEOUT_MS` bounds each
 * statement of the read and each wait on the client.
 */
/** A staff token exports the shop's search synonyms only with `Shop/search/read` (the CLI's system context always). */
function mayReadSynonyms(ctx: RequestContext): boolean {
  return ctx.actor.type !== 'staff' || ctx.scopes.has('Shop/search/read');
}

@Injectable()
export class CatalogueExportService {
  private readonly logger = new Logger('CatalogueExport');
  readonly slots: ExportSlots;
  /** `EXPORT_STALL_TIMEOUT_MS` (tests may change it). */
  stallMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly synonyms: SearchSynonymsAdmin,
    @Optional() config?: AppConfig,
  ) {
    this.slots = new ExportSlots(config?.EXPORT_CONCURRENCY_PER_TENANT ?? 2);
    this.stallMs = config?.EXPORT_STALL_TIMEOUT_MS ?? 30_000;
  }

  /** Reads the snapshot into a spool, then calls `start` (headers) and sends it; errors before `start` are thrown. */
  async export(ctx: RequestContext, format: ExportFormat, out: Writable, start: () => void): Promise<void> {
    const release = this.slots.take(ctx.tenantId);
    let spool: ExportSpool | null = null;
    try {
      spool = await ExportSpool.open();
      await this.read(ctx, format, spool);
      start();
      try {
        await spool.send(out, this.stallMs);
      } catch (err) {
        // the status line is gone: the body ends short, so the client sees a broken transfer rather than a document
        if (err instanceof ExportStalled) this.logger.warn(`export of ${ctx.tenantId} aborted: the client read nothing for ${this.stallMs} ms`);
        if (!out.destroyed) out.destroy();
      }
    } finally {
      await spool?.close();
      release();
    }
  }

  /** The document, read from one snapshot in short statements into the spool; the connection is released at the end. */
  private async read(ctx: RequestContext, format: ExportFormat, spool: ExportSpool): Promise<void> {
    const tenantId = ctx.tenantId;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await beginExportSnapshot(runner, this.stallMs);
      const m = runner.manager;
      const members = Object.entries(await this.head(m, tenantId));
      if (format === 'json') {
        await spool.write(`{${members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')},"products":[`);
        let first = true;
        for await (const product of this.products(m, tenantId)) {
          await spool.write((first ? '' : ',') + JSON.stringify(product));
          first = false;
        }
        await spool.write(`],"collections":${JSON.stringify(await this.collections(m, tenantId))}`);
        // search synonyms only for a token that may read them (Shop/search/read), as on GET /admin/search/synonyms
        if (mayReadSynonyms(ctx))
          await spool.write(`,"search_synonyms":${JSON.stringify((await this.synonyms.export(ctx.withManager(m))).search_synonyms ?? [])}}`);
        else await spool.write('}');
      } else {
        for (const [k, v] of members) await spool.write(`${JSON.stringify({ [k]: v })}\n`);
        for await (const product of this.products(m, tenantId)) await spool.write(`${JSON.stringify({ products: [product] })}\n`);
        for (const c of await this.collections(m, tenantId)) await spool.write(`${JSON.stringify({ collections: [c] })}\n`);
        const rules = mayReadSynonyms(ctx) ? ((await this.synonyms.export(ctx.withManager(m))).search_synonyms ?? []) : [];
        if (rules.length > 0) await spool.write(`${JSON.stringify({ search_synonyms: rules })}\n`);
      }
      await commitExportSnapshot(runner);
    } catch (err) {
      await rollbackExportSnapshot(runner);
      if ((err as { driverError?: { code?: string } }).driverError?.code === '57014')
        throw new AppError(HttpStatus.SERVICE_UNAVAILABLE, `the export made no progress for ${this.stallMs} ms: retry later`, undefined, {
          'Retry-After': '5',
        });
      throw err;
    } finally {
      await runner.release();
    }
  }

  /** Every member before `products`, in the import's order. */
  private async head(m: EntityManager, tenantId: string): Promise<Record<string, unknown>> {
    const s = await tenantSettingsOf(m, tenantId);
    if (!s) throw AppError.notFound('shop');
    const currencies = await currencyRecordsOf(m, tenantId);
    const defaultCurrency = currencies.find((c) => c.is_default);
    const facets: Record<string, unknown[]> = {};
    const facetRows = await exportFacetValues(m, tenantId);
    for (const dim of FACET_DIMENSIONS)
      facets[dim] = facetRows.filter((f) => f.dimension === dim).map((f) => ({ key: f.key, name: f.name, position: f.position }));
    const fields = await exportCustomFields(m, tenantId);
    const options = await exportCustomFieldOptions(m, tenantId);
    const tax = await exportTax(m, tenantId);
    const destinationRules = await destinationRulesDocument(m, tenantId);
    return {
      settings: {
        default_language: s.default_language,
        languages: s.languages,
        ...(defaultCurrency ? { default_currency: defaultCurrency.code } : {}),
        prices_include_tax: s.prices_include_tax,
        show_net_prices: s.show_net_prices,
        require_email_confirmation: s.require_email_confirmation,
        guest_checkout_enabled: s.guest_checkout_enabled,
        invoice_due_days: s.invoice_due_days,
        return_window_days: s.return_window_days,
        terms: s.terms,
        age_verification: s.age_verification,
      },
      currencies: currencies.map((c) => ({
        key: c.key,
        code: c.code,
        name: c.name,
        symbol: c.symbol,
        rate: Number(c.rate),
        precision: c.precision,
        published: c.published,
      })),
      countries: await countryRecordsOf(m, tenantId),
      locations: await exportStockLocations(m, tenantId),
      manufacturers: await exportManufacturers(m, tenantId),
      categories: await exportCategories(m, tenantId),
      facets,
      custom_fields: fields.map((f) => ({
        key: f.key,
        label: f.label,
        type: f.type,
        options: options.filter((o) => o.field_id === f.id).map((o) => ({ key: o.key, name: o.name, value: o.value })),
      })),
      flags: await exportFlags(m, tenantId),
      shipping_methods: await shippingMethodsDocument(m, tenantId),
      payment_types: await exportPaymentTypes(m, tenantId),
      // taxes by destination (issue 31): only for a shop that has any, so every other export stays as it was
      ...(tax ? { tax } : {}),
      ...(destinationRules ? { destination_rules: destinationRules } : {}),
    };
  }

  /** Live products, oldest first, one batch in memory at a time. */
  private async *products(m: EntityManager, tenantId: string): AsyncGenerator {
    const taxes = await exportVariantTaxes(m, tenantId);
    let after: [string, string] | null = null;
    for (;;) {
      const rows = await liveProductBatch(m, tenantId, after, PRODUCT_BATCH);
      if (rows.length === 0) return;
      for (const { doc, meta } of await readProductDocuments(
        m,
        tenantId,
        rows.map((r) => r.id),
      )) {
        meta.variants.forEach((v, i) => {
          const tax = taxes.get(v.id);
          if (tax) Object.assign(doc.variants[i], tax);
        });
        yield doc;
      }
      const last = rows[rows.length - 1];
      after = [new Date(last.created_at).toISOString(), last.id];
      if (rows.length < PRODUCT_BATCH) return;
    }
  }

  private async collections(m: EntityManager, tenantId: string): Promise<unknown[]> {
    const rows = await collectionRecordsOf(m, tenantId);
    // the products a manual collection picks (live ones, by key) are the catalogue's own rows
    const picked = await collectionPicks(m, tenantId);
    const productsOf = new Map(picked.map((r) => [r.collection_id, r.products]));
    return rows.map((c) => ({
      // a collection made through the admin API has no key: its id serves as one
      key: c.key ?? c.id,
      title: c.title,
      handle: c.handle,
      body_html: c.body_html,
      collection_type: c.collection_type,
      published: c.published,
      sort_order: c.sort_order,
      template_name: c.template_name,
      meta_title: c.meta_title,
      meta_description: c.meta_description,
      image: c.image_src ? { src: c.image_src, alt: c.image_alt, width: c.image_width, height: c.image_height } : null,
      ...(c.collection_type === 'smart' ? { rules_json: c.rules_json } : { products: productsOf.get(c.id) ?? [] }),
    }));
  }
}
