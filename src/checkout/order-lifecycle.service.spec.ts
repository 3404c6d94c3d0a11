import { describe, expect, it } from '@jest/globals';
import { ctx, failure, ORDER, setupOrder as setup, VARIANT_A, VARIANT_B } from '../../test/helpers/order-lifecycle-fakes.js';

/**
 * The order's state machine after placement (cancel, void, capture), with every
 * statement replaced by an in-memory order (the repository faked): what the services decide, not what SQL does.
 */

const cancelAll = { reason: 'customer', restock: true, refund: true, note: null };

describe('OrderLifecycleService: cancel (repository faked)', () => {
  it('refuses an order already cancelled or fully fulfilled with 409', async () => {
    const cancelled = await setup({ cancelledAt: new Date() });
    expect((await failure(cancelled.lifecycle.cancel(ctx, ORDER, cancelAll))).status).toBe(409);
    const shipped = await setup({ fulfillmentStatus: 'fulfilled' });
    expect(await failure(shipped.lifecycle.cancel(ctx, ORDER, cancelAll))).toMatchObject({
      status: 409,
      message: 'a fully fulfilled order cannot be cancelled',
    });
    expect(shipped.provider.calls).toEqual([]);
  });

  it('returns what is not shipped to the locations it was taken from, variants sorted by id, and counts it', async () => {
    const { lifecycle, repo, stock, events } = await setup({}, [
      { variantId: VARIANT_B, quantity: '3.000', fulfilledQuantity: '1.000' },
      { variantId: VARIANT_A, quantity: '2.000' },
    ]);
    repo.out.set(VARIANT_A, [{ location_id: 'L1', open: '2.000' }]);
    repo.out.set(VARIANT_B, [
      { location_id: 'L1', open: '1.000' },
      { location_id: 'L2', open: '2.000' },
    ]);
    await lifecycle.cancel(ctx, ORDER, { ...cancelAll, refund: false });
    expect(stock.movements).toEqual([
      { variantId: VARIANT_A, locationId: 'L1', delta: 2, reason: `restock order ${ORDER}` },
      { variantId: VARIANT_B, locationId: 'L1', delta: 1, reason: `restock order ${ORDER}` },
      { variantId: VARIANT_B, locationId: 'L2', delta: 1, reason: `restock order ${ORDER}` },
    ]);
    expect(repo.rows.map((l) => l.restockedQuantity)).toEqual(['2.000', '2.000']);
    expect(events.emitted.find((e) => e.topic === 'order.cancelled')?.payload).toMatchObject({ order: { restocked_quantity: 4, reason: 'customer' } });
  });

  it('without restock leaves stock alone', async () => {
    const { lifecycle, repo, stock } = await setup();
    repo.out.set(VARIANT_A, [{ location_id: 'L1', open: '1.000' }]);
    await lifecycle.cancel(ctx, ORDER, { ...cancelAll, restock: false, refund: false });
    expect(stock.movements).toEqual([]);
  });

  it('refunds what was paid through the provider when asked: order.refunded, then order.cancelled', async () => {
    const { lifecycle, repo, provider, events } = await setup({ paidAmount: '100.00', refundedAmount: '30.00', financialStatus: 'partially_refunded' });
    const after = await lifecycle.cancel(ctx, ORDER, cancelAll);
    expect(provider.calls).toEqual([{ op: 'refund', amount: 7000 }]);
    expect(repo.refunds.map((r) => r.amount)).toEqual(['70.00']);
    expect(after.financialStatus).toBe('refunded');
    expect(events.topics()).toEqual(['order.refunded', 'order.cancelled']);
    expect(events.emitted[1].payload).toMatchObject({ refund: { id: 'refund-1', amount: 70 }, order: { financial_status: 'refunded' } });
  });

  it('an unpaid order has its authorization voided for the unpaid total (no refund); its single-use code is released', async () => {
    const { lifecycle, repo, provider, events } = await setup({ paidAmount: '0', financialStatus: 'pending', discountCode: 'WELCOME' });
    await lifecycle.cancel(ctx, ORDER, cancelAll);
    expect(provider.calls).toEqual([{ op: 'void', amount: 10000 }]);
    expect(repo.order.financialStatus).toBe('voided');
    expect(repo.refunds).toEqual([]);
    expect(repo.released).toEqual(['WELCOME']);
    expect(events.emitted.find((e) => e.topic === 'order.cancelled')?.payload).toMatchObject({ order: { discount_code_released: true }, refund: null });
  });

  it('a void the provider declines is 422 and cancels nothing', async () => {
    const { lifecycle, repo, provider } = await setup({ paidAmount: '0', financialStatus: 'pending' });
    provider.answer = { status: 'failed', reference: null, message: 'nope' };
    expect(await failure(lifecycle.cancel(ctx, ORDER, cancelAll))).toMatchObject({ status: 422, code: 'payment_provider_declined' });
    expect(repo.order.cancelledAt).toBeNull();
  });

  it('a provider no longer registered: the void is recorded without a call, so the order can still be cancelled', async () => {
    const { lifecycle, repo, provider } = await setup({ paidAmount: '0', financialStatus: 'pending' }, [{}], false);
    await lifecycle.cancel(ctx, ORDER, cancelAll);
    expect(provider.calls).toEqual([]);
    expect(repo.transactions).toEqual([{ kind: 'void', amount: '100.00', status: 'succeeded', provider: 'psp' }]);
    expect(repo.order.cancelledAt).not.toBeNull();
  });
});

describe('OrderLifecycleService: capture after expiry or cancel (repository faked)', () => {
  it('captures what is unpaid on a pending order; a cancelled or no longer pending order is left alone', async () => {
    const pending = await setup({ paidAmount: '0', financialStatus: 'pending' });
    expect(await pending.lifecycle.capture(ctx, await pending.repo.lockOrder(ctx, ORDER))).toBe(true);
    expect(pending.provider.calls).toEqual([{ op: 'capture', amount: 10000 }]);
    expect(pending.repo.order.financialStatus).toBe('paid');
    expect(pending.events.topics()).toEqual(['order.paid']);

    const expired = await setup({ paidAmount: '0', financialStatus: 'voided', cancelledAt: new Date() });
    expect(await expired.lifecycle.capture(ctx, await expired.repo.lockOrder(ctx, ORDER))).toBe(false);
    expect(expired.provider.calls).toEqual([]);
    expect(expired.events.emitted).toEqual([]);

    // staff recorded the payment first: not pending any more, so a late confirmation captures nothing
    const paid = await setup({ paidAmount: '100.00', financialStatus: 'paid' });
    expect(await paid.lifecycle.capture(ctx, await paid.repo.lockOrder(ctx, ORDER))).toBe(false);
    expect(paid.provider.calls).toEqual([]);
  });

  it('a capture the provider declines is recorded as failed and changes nothing else', async () => {
    const { lifecycle, repo, provider, events } = await setup({ paidAmount: '0', financialStatus: 'pending' });
    provider.answer = { status: 'failed', reference: null };
    expect(await lifecycle.capture(ctx, await repo.lockOrder(ctx, ORDER))).toBe(false);
    expect(repo.transactions).toEqual([{ kind: 'capture', amount: '100.00', status: 'failed', provider: 'psp' }]);
    expect(repo.order.paidAmount).toBe('0');
    expect(events.emitted).toEqual([]);
  });
});
