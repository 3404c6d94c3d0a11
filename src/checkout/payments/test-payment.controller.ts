import { Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestContext } from '../../common/context/request-context.js';
import { AppConfig } from '../../config/app-config.js';
import { OrdersService, PaymentOutcome } from '../orders.service.js';

/**
 * The built-in test payment page of `redirect` payment types (outside /api: `storefront/{*path}` is excluded from the
 * global prefix), only with `PAYMENT_TEST_PROVIDER=on`. Public, addressed by order id and hash like the guest receipt.
 * GET shows the page; only the POST of its pay or cancel form records the outcome
 * and sends the buyer to the checkout's return_url with `order_id`, `hash` and `payment_status`.
 */
@ApiExcludeController()
@Controller('storefront/payments/test')
export class TestPaymentController {
  constructor(
    private readonly orders: OrdersService,
    private readonly config: AppConfig,
  ) {}

  /** Shows the order and the pay / cancel forms; a GET never changes anything. */
  @Get(':orderId')
  async page(@Param('orderId') orderId: string, @Query('hash') hash: unknown, @Res() res: Response): Promise<void> {
    const order = this.config.PAYMENT_TEST_PROVIDER ? await this.orders.findByIdAndHash(orderId, hash) : null;
    if (!order || order.paymentProvider !== 'test') {
      res.status(404).json({ errors: 'payment not found' });
      return;
    }
    const h = encodeURIComponent(String(hash));
    const total = `${Number(order.total).toFixed(order.currencyPrecision)} ${escapeHtml(order.currencyCode)}`;
    res
      .status(200)
      .type('html')
      .setHeader('Cache-Control', 'no-store')
      .send(
        `<!doctype html><html><head><meta charset="utf-8"><title>Test payment</title></head><body>
<h1>Test payment</h1><p>Order ${escapeHtml(String(order.number))}: <strong>${total}</strong></p><p>Status: ${escapeHtml(order.paymentStatus)}</p>
<form method="post" action="/storefront/payments/test/${order.id}/pay?hash=${h}"><button type="submit">Pay</button></form>
<form method="post" action="/storefront/payments/test/${order.id}/cancel?hash=${h}"><button type="submit">Cancel</button></form>
<p>This is the built-in test provider: no money moves.</p></body></html>`,
      );
  }

  @Post(':orderId/pay')
  pay(@Param('orderId') orderId: string, @Query('hash') hash: unknown, @Res() res: Response): Promise<void> {
    return this.finish(orderId, hash, 'paid', res);
  }

  @Post(':orderId/cancel')
  cancel(@Param('orderId') orderId: string, @Query('hash') hash: unknown, @Res() res: Response): Promise<void> {
    return this.finish(orderId, hash, 'cancelled', res);
  }

  private async finish(orderId: string, hash: unknown, outcome: PaymentOutcome, res: Response): Promise<void> {
    const found = this.config.PAYMENT_TEST_PROVIDER ? await this.orders.findByIdAndHash(orderId, hash) : null;
    if (!found || found.paymentProvider !== 'test') {
      res.status(404).json({ errors: 'payment not found' });
      return;
    }
    const order = await this.orders.recordPayment(RequestContext.forTenant(found.tenantId), found.id, outcome);
    if (!order.returnUrl) {
      res
        .status(200)
        .type('html')
        .send(`<!doctype html><html><body><p>Payment ${escapeHtml(order.paymentStatus)}.</p></body></html>`);
      return;
    }
    // return_url was validated (absolute http(s)) when the checkout completed; nothing from this request steers it
    const target = new URL(order.returnUrl);
    target.searchParams.set('order_id', order.id);
    target.searchParams.set('hash', order.hash);
    target.searchParams.set('payment_status', order.paymentStatus);
    res.redirect(303, target.toString());
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
