import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { MailTransport } from '../customers/index.js';
import { Extensions } from '../extensions/index.js';
import { minorToDecimalString, toMinor } from '../pricing/index.js';
import { TenancyService } from '../tenancy/index.js';
import { GiftCardCodes } from './gift-card-codes.js';
import { GiftCardsRepository } from './gift-cards.repository.js';

/** The paid order a sale of gift cards belongs to. */
export interface GiftCardSaleOrder {
  id: string;
  number: string;
  email: string | null;
  customerId: string | null;
  currency: string;
}

/** One unit of a gift card line: `unit` counts from 1 within the line; `value` is decimal in the order's currency. */
export interface GiftCardSaleUnit {
  orderLineId: string;
  unit: number;
  value: number;
  title: string | null;
}

/**
 * Gift cards sold as products (issue 33): once the order is paid, one card per unit bought, worth the unit's price,
 * in the order's currency, for the order's customer. Idempotent: a unit issues its card once (unique order line and
 * unit), however often the `order.paid` handler runs; the code is derived from the line and unit (GiftCardCodes.derive),
 * so the mail to the buyer is sent until it succeeded once (`mailed_at`), never with a code stored in clear.
 */
@Injectable()
export class GiftCardSales {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: GiftCardsRepository,
    private readonly codes: GiftCardCodes,
    private readonly tenancy: TenancyService,
    private readonly extensions: Extensions,
  ) {}

  /** The mail transport: an extension point, the last registered wins (built in: the customers' `MailModule`). */
  private get mail(): MailTransport {
    return this.extensions.one(MailTransport)!;
  }

  /** Issues what is not issued yet, then mails the codes not mailed yet; answers how many cards this call created. */
  async issue(ctx: RequestContext, order: GiftCardSaleOrder, units: GiftCardSaleUnit[]): Promise<number> {
    if (units.length === 0) return 0;
    const currency = (await this.tenancy.config(ctx.tenantId)).currencies.find((c) => c.code === order.currency);
    const precision = currency?.precision ?? 2;
    const created = await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      let n = 0;
      for (const u of units) {
        const value = minorToDecimalString(toMinor(u.value, precision), precision);
        const code = this.codes.derive(tx.tenantId, u.orderLineId, u.unit);
        const id = await this.repo.insertSoldAccount(m, tx.tenantId, {
          kind: 'gift_card',
          codeHash: this.codes.hash(code),
          lastCharacters: this.codes.lastCharacters(code),
          currency: order.currency,
          initialValue: value,
          customerId: order.customerId,
          expiresAt: null,
          note: `sold with order #${order.number}`,
          orderLineId: u.orderLineId,
          unit: u.unit,
        });
        if (!id) continue;
        await this.repo.append(m, tx.tenantId, {
          accountId: id,
          amount: value,
          currency: order.currency,
          orderId: order.id,
          kind: 'issue',
          staffId: null,
          note: `sold with order #${order.number}`,
        });
        n++;
      }
      return n;
    });
    await this.mailCodes(ctx, order, units);
    return created;
  }

  /**
   * Cards sold on an order line beyond its first `keep` units (those refunded, or all of a cancelled order) are
   * disabled under their row locks and what is left on them expires (an `expire` row): the money went back to the
   * buyer. Idempotent; answers how many cards it disabled.
   */
  async revoke(ctx: RequestContext, orderLineId: string, keep: number, note: string): Promise<number> {
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const found = await this.repo.soldBeyond(m, tx.tenantId, orderLineId, keep);
      await this.repo.lock(
        m,
        tx.tenantId,
        found.map((a) => a.id),
      );
      const cards = await this.repo.soldBeyond(m, tx.tenantId, orderLineId, keep); // re-read under the locks
      for (const a of cards) {
        await this.repo.updateAccount(m, tx.tenantId, a.id, { note: a.note, expiresAt: a.expires_at, customerId: a.customer_id, disabledAt: new Date() });
        if (toMinor(a.balance, 4) !== 0)
          await this.repo.append(m, tx.tenantId, {
            accountId: a.id,
            amount: minorToDecimalString(-toMinor(a.balance, 4), 4),
            currency: a.currency_code,
            orderId: null,
            kind: 'expire',
            staffId: null,
            note,
          });
      }
      return cards.length;
    });
  }

  private async mailCodes(ctx: RequestContext, order: GiftCardSaleOrder, units: GiftCardSaleUnit[]): Promise<void> {
    if (!order.email) return;
    const m = managerOf(ctx, this.dataSource);
    const pending = await this.repo.unmailedSold(m, ctx.tenantId, [...new Set(units.map((u) => u.orderLineId))]);
    if (pending.length === 0) return;
    const titles = new Map(units.map((u) => [u.orderLineId, u.title]));
    const cards = pending.map((p) => ({ ...p, code: this.codes.derive(ctx.tenantId, p.order_line_id, p.order_unit) }));
    await this.mail.send({
      to: order.email,
      subject: cards.length === 1 ? `Your gift card (order ${order.number})` : `Your ${cards.length} gift cards (order ${order.number})`,
      text: cards.map((c) => `${titles.get(c.order_line_id) ?? 'Gift card'}: ${c.code} worth ${Number(c.initial_value)} ${c.currency_code}`).join('\n') + '\n',
      kind: 'gift_card_issued',
      data: { order_id: order.id, codes: cards.map((c) => c.code).join(','), gift_card_ids: cards.map((c) => c.id).join(',') },
    });
    await this.repo.markMailed(
      m,
      ctx.tenantId,
      cards.map((c) => c.id),
    );
  }
}
