import { parseActions, parseConditions, RuleError, toEngineRules } from './promotion-rules.js';

describe('promotion rules (wire form)', () => {
  it('fills the defaults of n_for_m, buy_x_get_y and shipping', () => {
    expect(parseActions([{ type: 'n_for_m', n: 6, m: 5 }])).toEqual([{ type: 'n_for_m', n: 6, m: 5, free: 'cheapest' }]);
    expect(
      parseActions([{ type: 'buy_x_get_y', buy: [{ type: 'product', ids: ['a'] }], buy_quantity: 2, get: [{ type: 'product', ids: ['b'] }], get_quantity: 1 }]),
    ).toEqual([
      {
        type: 'buy_x_get_y',
        buy: [{ type: 'product', ids: ['a'] }],
        buy_quantity: 2,
        get: [{ type: 'product', ids: ['b'] }],
        get_quantity: 1,
        percent: 100,
        max_applications: null,
      },
    ]);
    expect(parseActions([{ type: 'shipping', amount: 5 }])).toEqual([{ type: 'shipping', percent: null, amount: 5, method_ids: [], countries: [] }]);
    expect(parseConditions(undefined)).toEqual([]);
  });

  it('zones: a shipping_zone condition and a shipping action limited to zones (kept only when given)', () => {
    expect(parseConditions([{ type: 'shipping_zone', zones: ['alps'] }])).toEqual([{ type: 'shipping_zone', zones: ['alps'] }]);
    expect(parseActions([{ type: 'shipping', zones: ['alps'] }])).toEqual([
      { type: 'shipping', percent: 100, amount: null, method_ids: [], countries: [], zones: ['alps'] },
    ]);
    expect(() => parseConditions([{ type: 'shipping_zone', zones: [] }])).toThrow('conditions[0].zones must be a non-empty list of at most 1000');
  });

  it('converts amounts by the currency rate, rounded once', () => {
    expect(toEngineRules([{ type: 'min_subtotal', amount: 100 }], [{ type: 'fixed_off_order', amount: 5 }], 2, '1.1')).toEqual({
      conditions: [{ type: 'min_subtotal', amount: 11000 }],
      actions: [{ type: 'fixed_off_order', amount: 550 }],
    });
  });

  it.each([
    [() => parseActions([{ type: 'shipping', amount: 5, percent: 10 }]), 'actions[0]: give percent or amount, not both'],
    [() => parseActions([{ type: 'fixed_off_lines', amount: -1 }]), 'actions[0].amount must be a decimal amount from 0 with at most 4 decimals'],
    [() => parseActions([{ type: 'set_price', size: 1, price: 10 }]), 'actions[0].size must be an integer from 2 to 10000'],
    [() => parseConditions([{ type: 'lines', selector: [] }]), 'conditions[0].selector must be a non-empty list of matchers'],
    [() => parseConditions([{ type: 'customer_group', group_ids: [''] }]), 'conditions[0].group_ids[0] must be a non-blank text'],
    [() => parseConditions(['x']), 'conditions[0] must be an object'],
  ])('names the bad member (%#)', (parse, message) => {
    expect(parse).toThrow(RuleError);
    expect(parse).toThrow(message);
  });

  it('turns decimals into minor units of the currency once', () => {
    const rules = toEngineRules(
      [{ type: 'min_subtotal', amount: 150.5 }],
      [
        { type: 'set_price', size: 6, price: 59.99 },
        { type: 'fixed_off_order', amount: 0.1 },
        { type: 'shipping', percent: null, amount: 4.5, method_ids: [], countries: [] },
      ],
      2,
    );
    expect(rules.conditions).toEqual([{ type: 'min_subtotal', amount: 15050 }]);
    expect(rules.actions.map((a) => ('price' in a ? a.price : 'amount' in a ? a.amount : null))).toEqual([5999, 10, 450]);
    expect(toEngineRules([{ type: 'min_subtotal', amount: 1000 }], [], 0).conditions).toEqual([{ type: 'min_subtotal', amount: 1000 }]);
  });
});
