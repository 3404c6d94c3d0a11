import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { Extensions, OrderAfterSales } from '../extensions/index.js';
import { translate } from '../common/i18n.js';
import { fromMinor, toMinor } from '../pricing/index.js';
import { TenancyService } from '../tenancy/index.js';
import { Page } from '../common/paging/page.js';
import type { PageRequest } from '../common/paging/pager.service.js';
import { CountryNames, mapReceiptBase } from './checkout-mappers.js';
import type { AdminOrderDto, AdminOrderListQueryDto, AdminOrderSummaryDto, UpdateOrderDto } from './dto/admin-order.dto.js';
import type { Order } from './entities/checkout.entities.js';
import { OrderLifecycleService } from './order-lifecycle.service.js';
import { OrdersRepository, type AdminOrderFilter } from './repositories/orders.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function mapAdminOrderSummary(o: Order): AdminOrderSummaryDto {
  return {
    id: o.id,
    number: String(o.number),
    created_at: o.createdAt.toISOString(),
    email: o.email,
    total: Number(o.total),
    currency: o.currencyCode,
    status: o.status,
    financial_status: o.financialStatus,
    fulfillment_status: o.fulfillmentStatus,
  };
}

/** Staff's view of orders: the cursored list, the full order, and note/tags/email edits. */
@Injectable()
export class AdminOrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly lifecycle: OrderLifecycleService,
    private readonly tenancy: TenancyService,
    private readonly extensions: Extensions,
  ) {}

  /** Newest first (created_at, id), cursored; every filter is AND-combined. */
  async list(ctx: RequestContext, page: PageRequest, f: AdminOrderListQueryDto): Promise<Page<AdminOrderSummaryDto>> {
    if (f.created_at_min && Number.isNaN(Date.parse(f.created_at_min))) throw AppError.unprocessable('created_at_min must be an ISO 8601 date');
    if (f.created_at_max && Number.isNaN(Date.parse(f.created_at_max))) throw AppError.unprocessable('created_at_max must be an ISO 8601 date');
    const filter: AdminOrderFilter = {
      status: f.status,
      financialStatus: f.financial_status,
      fulfillmentStatus: f.fulfillment_status,
      createdAtMin: f.created_at_min ? new Date(f.created_at_min) : undefined,
      createdAtMax: f.created_at_max ? new Date(f.created_at_max) : undefined,
      customerId: f.customer_id,
      email: f.email ? f.email.trim().toLowerCase() : undefined,
      q: f.q?.trim().toLowerCase() || undefined,
    };
    if (f.overdue === 'true') filter.overdueAfterDays = (await this.tenancy.config(ctx.tenantId)).settings.invoice_due_days;
    const rows = await this.orders.page(ctx, page, filter);
    return rows.map(mapAdminOrderSummary);
  }

  async get(ctx: RequestContext, id: string): Promise<AdminOrderDto> {
    if (!UUID.test(id)) throw AppError.notFound('order');
    const order = await this.orders.find(ctx, id);
    if (!order) throw AppError.notFound('order');
    return this.present(ctx, order);
  }

  /** Only supplied members change; null clears note or email; tags are replaced (trimmed, de-duplicated). */
  async update(ctx: RequestContext, id: string, dto: UpdateOrderDto): Promise<AdminOrderDto> {
    const order = await this.lifecycle.run(ctx, async (tx) => {
      const o = await this.lifecycle.lock(tx, id);
      if (dto.note !== undefined) o.note = dto.note;
      if (dto.email !== undefined) o.email = dto.email === null ? null : dto.email.trim();
      if (dto.tags !== undefined && dto.tags !== null) o.tags = [...new Set(dto.tags.map((t) => t.trim()).filter(Boolean))];
      await this.orders.saveEdits(tx, o);
      return o;
    });
    return this.present(ctx, order);
  }

  async present(ctx: RequestContext, order: Order): Promise<AdminOrderDto> {
    const afterSales = this.extensions.one(OrderAfterSales);
    const [lines, { refunds, fulfillments, transactions, countries }, { returns, claims }] = await Promise.all([
      this.lifecycle.lines(ctx, order.id),
      this.orders.parts(ctx, order.id),
      afterSales ? afterSales.ofOrder(ctx, order.id) : { returns: [], claims: [] },
    ]);
    const names: CountryNames = new Map(countries.map((c) => [c.code, translate(c.name, ctx)]));
    return {
      ...mapReceiptBase(order, lines, names),
      refunds: refunds.map((r) => ({
        id: r.id,
        created_at: r.createdAt.toISOString(),
        amount: Number(r.amount),
        shipping: Number(r.shipping),
        lines: r.lines,
        note: r.note,
      })),
      fulfillments: fulfillments.map((f) => ({
        id: f.id,
        created_at: f.createdAt.toISOString(),
        lines: f.lines,
        tracking_number: f.trackingNumber,
        tracking_url: f.trackingUrl,
        carrier: f.carrier,
      })),
      transactions: transactions.map((x) => ({
        id: x.id,
        created_at: x.createdAt.toISOString(),
        kind: x.kind,
        amount: Number(x.amount),
        status: x.status,
        provider: x.provider,
        reference: x.reference,
        recorded_by: x.recordedBy,
        note: x.note,
      })),
      email: order.email,
      customer_id: order.customerId,
      note: order.note,
      tags: order.tags,
      replacement_for: order.replacementFor,
      returns,
      claims,
      taxes: {
        tax_zone: order.taxZone,
        gross_price_policy: order.grossPricePolicy,
        excise_amount: fromMinor(
          lines.reduce((a, l) => a + toMinor(l.exciseAmount, order.currencyPrecision), 0),
          order.currencyPrecision,
        ),
        lines: lines.map((l) => ({
          line_id: l.id,
          tax_rate: Number(l.taxRate),
          tax_category: l.taxCategory,
          tax_zone: l.taxZone,
          excise_amount: Number(l.exciseAmount),
          excise_tax: Number(l.exciseTax),
        })),
      },
      shipping: {
        method_id: order.shippingMethodId,
        method_name: order.shippingMethodName,
        zone: order.shippingZone,
        amount: Number(order.shippingAmount),
        tax_rate: Number(order.shippingTaxRate),
        rate: order.shippingRate,
      },
    };
  }
}
