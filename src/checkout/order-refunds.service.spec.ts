import { describe, expect, it } from '@jest/globals';
import { ctx, failure, ORDER, setupOrder as setup, VARIANT_A, VARIANT_B } from '../../test/helpers/order-lifecycle-fakes.js';
import type { CreateRefundDto } from './dto/admin-order.dto.js';
import type { Order, OrderLine } from './entities/checkout.entities.js';

/** The refund rules of `OrderRefundsService`, over one order in memory (the repository faked). */
describe('OrderRefundsService (repository faked)', () => {
  const refund = async (dto: CreateRefundDto, order: Partial<Order> = {}, lines?: Array<Partial<OrderLine>>) => {
    const s = await setup(order, lines);
    return { ...s, result: s.refunds.create(ctx, ORDER, dto) };
  };

  it("refuses another currency than the order's (422 currency_mismatch)", async () => {
    const { result } = await refund({ amount: 1, currency: 'EUR' });
    expect(await failure(result)).toMatchObject({ status: 422, code: 'currency_mismatch' });
  });

  it('refuses a line quantity beyond what is left of the line, an unknown or repeated line, and nothing to refund', async () => {
    const over = await refund({ lines: [{ line_id: 'line-0', quantity: 1 }] }, {}, [{ refundedQuantity: '0.500' }]);
    expect((await failure(over.result)).message).toBe('lines[0].quantity exceeds what is left to refund of this line (0.5)');
    const unknown = await refund({ lines: [{ line_id: 'nope', quantity: 1 }] });
    expect((await failure(unknown.result)).message).toBe('lines[0].line_id names no line of this order');
    const twice = await refund({
      lines: [
        { line_id: 'line-0', quantity: 0.5 },
        { line_id: 'line-0', quantity: 0.5 },
      ],
    });
    expect((await failure(twice.result)).message).toBe('lines[1].line_id appears twice');
    const nothing = await refund({});
    expect((await failure(nothing.result)).message).toBe('nothing to refund: give lines, shipping or amount');
  });

  it('never refunds more than was paid and not yet refunded (422 refund_exceeds_paid)', async () => {
    const { result, provider } = await refund({ amount: 80.01 }, { refundedAmount: '20.00' });
    expect(await failure(result)).toMatchObject({ status: 422, code: 'refund_exceeds_paid' });
    expect(provider.calls).toEqual([]);
  });

  it('computes the amount from the lines; the refund that covers everything left takes exactly what is left', async () => {
    // 3 x 33.33 = 99.99 charged for the lines, 100.00 paid: refunding every line refunds the 100.00
    const lines = [{ quantity: '3.000', lineTotal: '99.99', lineTotalWithTax: '99.99' }];
    const part = await refund({ lines: [{ line_id: 'line-0', quantity: 1 }] }, { subtotal: '99.99' }, lines);
    await part.result;
    expect(part.provider.calls).toEqual([{ op: 'refund', amount: 3333 }]);
    expect(part.repo.rows[0].refundedQuantity).toBe('1.000');
    const all = await refund({ lines: [{ line_id: 'line-0', quantity: 3 }] }, { subtotal: '99.99' }, lines);
    await all.result;
    expect(all.provider.calls).toEqual([{ op: 'refund', amount: 10000 }]);
    expect(all.repo.order.financialStatus).toBe('refunded');
  });

  it('restocks only the lines marked restock', async () => {
    const { refunds, repo, stock } = await setup();
    repo.out.set(VARIANT_A, [{ location_id: 'L1', open: '1.000' }]);
    repo.out.set(VARIANT_B, [{ location_id: 'L1', open: '1.000' }]);
    await refunds.create(ctx, ORDER, {
      lines: [
        { line_id: 'line-0', quantity: 1, restock: true },
        { line_id: 'line-1', quantity: 1 },
      ],
    });
    expect(stock.movements.map((m) => m.variantId)).toEqual([VARIANT_A]);
    expect(repo.rows.map((l) => [l.refundedQuantity, l.restockedQuantity])).toEqual([
      ['1.000', '1.000'],
      ['1.000', '0.000'],
    ]);
  });

  it("the provider's money goes back first, what gift cards paid returns to them; store credit replaces both", async () => {
    const split = await refund({ amount: 100 }, { balancePaid: '40.00' });
    await split.result;
    expect(split.provider.calls).toEqual([{ op: 'refund', amount: 6000 }]);
    expect(split.balances.returned).toEqual([4000]);
    expect(split.repo.transactions.map((t) => [t.provider, t.amount])).toEqual([
      ['psp', '60.00'],
      ['balance', '40.00'],
    ]);

    const s = await setup();
    await s.refunds.create(ctx, ORDER, { amount: 25 }, { storeCreditCustomerId: 'cust-1' });
    expect(s.provider.calls).toEqual([]);
    expect(s.balances.credited).toEqual([{ customerId: 'cust-1', amount: 2500 }]);
    expect(s.repo.transactions).toEqual([{ kind: 'refund', amount: '25.00', status: 'succeeded', provider: 'store_credit' }]);
  });
});
