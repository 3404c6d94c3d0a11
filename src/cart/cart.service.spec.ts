import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { QuantityRuleRow, SellableVariantRow } from '../catalogue/index.js';
import { RequestContext, type CurrencyInfo } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { DiscountCode, DiscountCodesService } from '../discounts/index.js';
import { PriceAdjustments } from '../extensions/index.js';
import { quantityRuleViolation, type CouponRefusal } from '../pricing/index.js';
import { PromotionEvaluation } from '../promotions/index.js';
import { TenancyService } from '../tenancy/index.js';
import type { Owner } from './cart-owner.js';
import { CartRepository, type CartItemRow, type CartRow, type CheckedAdd } from './cart.repository.js';
import { CartService } from './cart.service.js';

/**
 * The cart's own rules (what the pure pricing in src/pricing/ does not decide): which lines are priced, the net
 * display, coupons dropped at a read or refused at apply, quantity rules, currencies and the sign-in carry-over,
 * with every statement replaced by carts in memory (the repository faked).
 */

const TENANT = '00000000-0000-0000-0000-000000000001';
const WINE = '00000000-0000-0000-0000-0000000000b1';
const GONE = '00000000-0000-0000-0000-0000000000b2';
const CHF: CurrencyInfo = { id: 'chf', code: 'CHF', rate: '1', precision: 2, isDefault: true };
const EUR: CurrencyInfo = { id: 'eur', code: 'EUR', rate: '1', precision: 2, isDefault: false };

const sellable = (id: string): SellableVariantRow => ({
  variant_id: id,
  product_id: `p-${id}`,
  gross: '10.81',
  net: '10.00',
  tax_rate: '8.1',
  grams: 750,
  sku: 'SKU',
  title: { en: 'Barolo' },
  variant_title: { en: '75 cl' },
  description: { en: '' },
  alcohol_volume: null,
  track_inventory: false,
  allow_backorder: false,
  handle: 'barolo',
  vendor: null,
  image_id: null,
  image_src: null,
  image_alt: null,
  image_position: null,
  image_width: null,
  image_height: null,
  year: null,
  size: null,
  color: null,
});

const keyOf = (o: Owner) => (o.kind === 'customer' ? `c:${o.customerId}` : `v:${o.visitorId}`);

/** Carts in memory by owner, as the repository's contract describes them. */
class FakeCarts {
  carts = new Map<string, CartRow & { items: CartItemRow[] }>();
  rules = new Map<string, QuantityRuleRow>([[WINE, { min: '1', max: '12', increment: '1' }]]);
  sold = new Set([WINE]);
  types = new Map<string, string>();
  dropped: Array<{ code: string; refusal: CouponRefusal }> = [];
  overflow = false;

  private cart(owner: Owner) {
    const k = keyOf(owner);
    if (!this.carts.has(k)) this.carts.set(k, { id: `cart-${k}`, currency_id: null, discount_code: null, discount_code_error: null, items: [] });
    return this.carts.get(k)!;
  }
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return work(ctx);
  }
  findCart(_ctx: RequestContext, owner: Owner): Promise<CartRow | null> {
    return Promise.resolve(this.carts.get(keyOf(owner)) ?? null);
  }
  dropCoupon(_ctx: RequestContext, cartId: string, code: string, refusal: CouponRefusal): Promise<void> {
    this.dropped.push({ code, refusal });
    for (const c of this.carts.values()) if (c.id === cartId) Object.assign(c, { discount_code: null, discount_code_error: refusal });
    return Promise.resolve();
  }
  addToLine(_ctx: RequestContext, owner: Owner, variantId: string, quantity: string): Promise<{ quantity: string; cart: CartRow }> {
    if (this.overflow) return Promise.reject(Object.assign(new Error('numeric field overflow'), { code: '22003' }));
    const c = this.cart(owner);
    const line = c.items.find((i) => i.variant_id === variantId);
    if (line) line.quantity = (Number(line.quantity) + Number(quantity)).toFixed(3);
    else c.items.push({ variant_id: variantId, quantity });
    const cart = { id: c.id, currency_id: c.currency_id, discount_code: c.discount_code, discount_code_error: c.discount_code_error };
    return Promise.resolve({ quantity: c.items.find((i) => i.variant_id === variantId)!.quantity, cart });
  }
  /** As the one statement does: the rule checked on the quantity wanted, written only when it holds (`race`: another add lands first). */
  race = false;
  addChecked(_ctx: RequestContext, owner: Owner, variantId: string, quantity: string): Promise<CheckedAdd> {
    if (this.overflow) return Promise.reject(Object.assign(new Error('numeric field overflow'), { code: '22003' }));
    const rule = this.sold.has(variantId) ? (this.rules.get(variantId) ?? null) : null;
    const before = this.carts.get(keyOf(owner))?.items.map((i) => ({ ...i })) ?? [];
    const wanted = (Number(before.find((i) => i.variant_id === variantId)?.quantity ?? 0) + Number(quantity)).toFixed(3);
    const sold = [...new Set([...before.map((i) => i.variant_id), variantId])].filter((id) => this.sold.has(id)).map(sellable);
    if (!rule || quantityRuleViolation(wanted, rule) || this.race) return Promise.resolve({ rule, wanted, quantity: null, cart: null, items: before, sold });
    return this.addToLine(_ctx, owner, variantId, quantity).then((added) => ({
      rule,
      wanted,
      quantity: added.quantity,
      cart: added.cart,
      items: before,
      sold,
    }));
  }
  setLine(_ctx: RequestContext, owner: Owner, variantId: string, quantity: string): Promise<void> {
    const c = this.cart(owner);
    c.items = [...c.items.filter((i) => i.variant_id !== variantId), { variant_id: variantId, quantity }];
    return Promise.resolve();
  }
  removeLine(_ctx: RequestContext, owner: Owner, variantId: string): Promise<void> {
    const c = this.carts.get(keyOf(owner));
    if (c) c.items = c.items.filter((i) => i.variant_id !== variantId);
    return Promise.resolve();
  }
  empty(_ctx: RequestContext, owner: Owner): Promise<void> {
    const c = this.carts.get(keyOf(owner));
    if (c) Object.assign(c, { items: [], discount_code: null, discount_code_error: null });
    return Promise.resolve();
  }
  setCurrency(_ctx: RequestContext, owner: Owner, currencyId: string): Promise<void> {
    this.cart(owner).currency_id = currencyId;
    return Promise.resolve();
  }
  setDiscountCode(_ctx: RequestContext, owner: Owner, code: string | null): Promise<void> {
    Object.assign(this.cart(owner), { discount_code: code, discount_code_error: null });
    return Promise.resolve();
  }
  clearDiscountCode(_ctx: RequestContext, owner: Owner): Promise<void> {
    const c = this.carts.get(keyOf(owner));
    if (c) Object.assign(c, { discount_code: null, discount_code_error: null });
    return Promise.resolve();
  }
  lockVisitorCart(_tx: RequestContext, visitorId: string): Promise<CartRow | null> {
    return Promise.resolve(this.carts.get(`v:${visitorId}`) ?? null);
  }
  lockCustomerCart(_tx: RequestContext, customerId: string): Promise<{ id: string } | null> {
    return Promise.resolve(this.carts.get(`c:${customerId}`) ?? null);
  }
  giveToCustomer(_tx: RequestContext, cartId: string, customerId: string): Promise<void> {
    const [k, c] = [...this.carts.entries()].find(([, x]) => x.id === cartId)!;
    this.carts.delete(k);
    this.carts.set(`c:${customerId}`, c);
    return Promise.resolve();
  }
  mergeInto(_tx: RequestContext, intoId: string, from: CartRow): Promise<void> {
    const into = [...this.carts.values()].find((c) => c.id === intoId)!;
    const source = [...this.carts.entries()].find(([, c]) => c.id === from.id)!;
    for (const i of source[1].items) {
      const line = into.items.find((x) => x.variant_id === i.variant_id);
      if (line) line.quantity = (Number(line.quantity) + Number(i.quantity)).toFixed(3);
      else into.items.push({ ...i });
    }
    into.currency_id = from.currency_id ?? into.currency_id;
    into.discount_code = from.discount_code ?? into.discount_code;
    this.carts.delete(source[0]);
    return Promise.resolve();
  }
  itemsSold(_ctx: RequestContext, cartId: string): Promise<{ items: CartItemRow[]; sold: SellableVariantRow[] }> {
    const items = [...this.carts.values()].find((c) => c.id === cartId)?.items ?? [];
    return Promise.resolve({ items, sold: items.filter((i) => this.sold.has(i.variant_id)).map((i) => sellable(i.variant_id)) });
  }
  sellableVariants(_ctx: RequestContext, ids: string[]): Promise<Map<string, SellableVariantRow>> {
    return Promise.resolve(new Map(ids.filter((id) => this.sold.has(id)).map((id) => [id, sellable(id)])));
  }
  sellableVariantRule(_ctx: RequestContext, id: string): Promise<QuantityRuleRow | null> {
    return Promise.resolve(this.sold.has(id) ? (this.rules.get(id) ?? null) : null);
  }
  variantPromotionFacts(): Promise<[]> {
    return Promise.resolve([]);
  }
  customerType(_ctx: RequestContext, customerId: string): Promise<string | null> {
    return Promise.resolve(this.types.get(customerId) ?? null);
  }
}

const coupon = (over: Partial<DiscountCode>): DiscountCode =>
  Object.assign(new DiscountCode(), {
    code: 'TEN',
    type: 'value',
    value: '10',
    isActive: true,
    isUsed: false,
    isInfinite: false,
    expiryDate: null,
    currencyId: null,
    minValue: '0',
    ...over,
  });

async function setup(opts: { showNet?: boolean; codes?: DiscountCode[]; promotionCodes?: string[] } = {}) {
  const carts = new FakeCarts();
  const config = {
    settings: { show_net_prices: opts.showNet ?? false },
    defaultCurrency: CHF,
    currencies: [
      { ...CHF, published: true },
      { ...EUR, published: true },
      { id: 'usd', code: 'USD', rate: '1', precision: 2, isDefault: false, published: false },
    ],
  };
  const module = await Test.createTestingModule({
    providers: [
      CartService,
      { provide: CartRepository, useValue: carts },
      { provide: TenancyService, useValue: { config: () => Promise.resolve(config) } },
      {
        provide: DiscountCodesService,
        useValue: { findByCode: (_c: RequestContext, code: string) => Promise.resolve(opts.codes?.find((d) => d.code === code) ?? null) },
      },
      { provide: PriceAdjustments, useValue: { apply: <L>(_c: RequestContext, _id: string | null, lines: L[]) => Promise.resolve(lines) } },
      {
        provide: PromotionEvaluation,
        useValue: {
          prepare: () => Promise.resolve(null),
          byCode: (_c: RequestContext, code: string) => Promise.resolve(opts.promotionCodes?.includes(code) ? { code } : null),
        },
      },
    ],
  }).compile();
  return { service: module.get(CartService), carts };
}

function visitor(id = 'visitor-1'): RequestContext {
  const ctx = RequestContext.forTenant(TENANT);
  ctx.visitorId = id;
  ctx.currency = CHF;
  return ctx;
}
function customer(id = 'cust-1'): RequestContext {
  const ctx = visitor();
  ctx.actor = { type: 'customer', customerId: id, tokenId: 't' };
  return ctx;
}

async function failure(p: Promise<unknown>): Promise<{ status: number; message: string; code?: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message, code: err.code };
    throw err;
  }
  throw new Error('expected a failure');
}

describe('CartService (repository faked)', () => {
  it('prices only lines whose variant is still sold, gross by default, net for the shop setting or a corporate buyer', async () => {
    const { service, carts } = await setup();
    await service.addItem(visitor(), { article_id: WINE, quantity: 2 });
    carts.carts.get('v:visitor-1')!.items.push({ variant_id: GONE, quantity: '1.000' });
    const priced = await service.priceCart(visitor());
    expect(priced.lines.map((l) => [l.variantId, l.line])).toEqual([[WINE, 2162]]);
    expect(priced.subtotal).toBe(2162);

    carts.types.set('cust-1', 'corporate');
    await service.addItem(customer(), { article_id: WINE });
    expect((await service.priceCart(customer())).subtotal).toBe(1000);
    carts.types.set('cust-1', 'private');
    expect((await service.priceCart(customer())).subtotal).toBe(1081);
    const net = await setup({ showNet: true });
    await net.service.addItem(visitor(), { article_id: WINE });
    expect((await net.service.priceCart(visitor())).subtotal).toBe(1000);
  });

  it('drops a coupon that stopped applying at a display read (keeping why), but only reports it for the checkout bases', async () => {
    const { service, carts } = await setup({ codes: [coupon({ code: 'BIG', minValue: '50' })] });
    await service.addItem(visitor(), { article_id: WINE });
    await carts.setDiscountCode(visitor(), { kind: 'visitor', visitorId: 'visitor-1' }, 'BIG');
    const gross = await service.priceCart(visitor(), { basis: 'gross' });
    expect([gross.discountCode, gross.discountCodeError, carts.dropped]).toEqual([null, 'discount_code_minimum_not_met', []]);
    const shown = await service.priceCart(visitor());
    expect([shown.discountCode, shown.discountCodeError, shown.discount]).toEqual([null, 'discount_code_minimum_not_met', 0]);
    expect(carts.dropped).toEqual([{ code: 'BIG', refusal: 'discount_code_minimum_not_met' }]);
  });

  it('a coupon that applies takes its amount off; an unknown code is refused with 422 and the cart keeps none', async () => {
    const { service, carts } = await setup({ codes: [coupon({})] });
    await service.addItem(visitor(), { article_id: WINE, quantity: 2 });
    expect(await failure(service.applyDiscountCode(visitor(), { code: 'NOPE' }))).toMatchObject({ status: 422, code: 'discount_code_not_found' });
    expect(carts.carts.get('v:visitor-1')!.discount_code).toBeNull();
    const dto = await service.applyDiscountCode(visitor(), { code: 'TEN' });
    expect(dto).toMatchObject({ discount_code: 'TEN' });
    expect((await service.priceCart(visitor())).total).toBe(2162 - 1000);
  });

  it("an active promotion's code is kept like a discount code", async () => {
    const { service, carts } = await setup({ promotionCodes: ['SPRING'] });
    await service.addItem(visitor(), { article_id: WINE });
    await service.applyDiscountCode(visitor(), { code: 'SPRING' });
    expect(carts.carts.get('v:visitor-1')!.discount_code).toBe('SPRING');
  });

  it('the quantity rule holds for the resulting quantity of an add and for a set; an unsold variant or an overflow is 422', async () => {
    const { service, carts } = await setup();
    carts.rules.set(WINE, { min: '1', max: '6', increment: '1' });
    await service.addItem(visitor(), { article_id: WINE, quantity: 4 });
    expect((await failure(service.addItem(visitor(), { article_id: WINE, quantity: 3 }))).message).toMatch(/above the variant's quantity_rule.max of 6/);
    expect((await failure(service.setItem(visitor(), WINE, { quantity: 7 }))).status).toBe(422);
    expect((await failure(service.addItem(visitor(), { article_id: GONE }))).message).toMatch(/does not name a published, active variant/);
    carts.overflow = true;
    expect((await failure(service.addItem(visitor(), { article_id: WINE }))).message).toBe('quantity is too large');
    carts.overflow = false;
    expect(carts.carts.get('v:visitor-1')!.items).toEqual([{ variant_id: WINE, quantity: '4.000' }]); // a refused add wrote nothing
    await service.setItem(visitor(), WINE, { quantity: 0 });
    expect(carts.carts.get('v:visitor-1')!.items).toEqual([]);
  });

  it('an add answers from its one statement; when another add landed between its check and its write, it decides again under a transaction', async () => {
    const { service, carts } = await setup();
    const first = await service.addItem(visitor(), { article_id: WINE, quantity: 2 });
    expect(first.items.map((i) => [i.id, i.quantity])).toEqual([[WINE, 2]]);
    carts.race = true; // the statement wrote nothing though the rule held on the line as read
    const again = await service.addItem(visitor(), { article_id: WINE, quantity: 3 });
    expect(again.items.map((i) => [i.id, i.quantity])).toEqual([[WINE, 5]]);
    expect(carts.carts.get('v:visitor-1')!.items).toEqual([{ variant_id: WINE, quantity: '5.000' }]);
  });

  it('sets a currency the shop publishes (id wins over code); another is 422', async () => {
    const { service, carts } = await setup();
    expect((await failure(service.setCurrency(visitor(), { code: 'usd' }))).status).toBe(422);
    expect((await failure(service.setCurrency(visitor(), {}))).message).toBe('currency_id or code is required');
    await service.setCurrency(visitor(), { currency_id: 'eur', code: 'CHF' });
    expect(carts.carts.get('v:visitor-1')!.currency_id).toBe('eur');
  });

  it("carries a visitor's cart over at sign-in: it becomes the shopper's, or its lines are added to the shopper's", async () => {
    const { service, carts } = await setup();
    await service.addItem(visitor('v1'), { article_id: WINE, quantity: 2 });
    await service.mergeVisitorIntoCustomer(visitor(), 'v1', 'c1');
    expect(carts.carts.get('c:c1')!.items).toEqual([{ variant_id: WINE, quantity: '2.000' }]);
    await service.addItem(visitor('v2'), { article_id: WINE, quantity: 3 });
    await service.mergeVisitorIntoCustomer(visitor(), 'v2', 'c1');
    expect([...carts.carts.keys()]).toEqual(['c:c1']);
    expect(carts.carts.get('c:c1')!.items).toEqual([{ variant_id: WINE, quantity: '5.000' }]);
  });
});
