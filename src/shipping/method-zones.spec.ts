import { judgeDestination, litresOfSize, parseDestinationRule, type DestinationRuleRow } from './destination-rules.js';
import { parseMethodZones, postcodeExcluded, quote, type Destination, type ShippingMethodRow } from './method-zones.js';
import { parcelMeasures, ShippingInputError } from './rate-table.js';

const cents = (x: number | string) => Math.round(Number(x) * 100);
const bottles = {
  basis: 'bottles' as const,
  steps: [
    { from: 1, to: 6, price: 12 },
    { from: 7, to: 12, price: 18 },
    { from: 13, to: 18, price: 26 },
  ],
  beyond: { every: 6, price: 8 },
};

function method(over: Partial<ShippingMethodRow> = {}): ShippingMethodRow {
  return {
    id: 'm',
    key: 'm',
    name: { en: 'Post' },
    price: '9.5000',
    tax_rate: '8.100',
    countries: [],
    free_over: null,
    delivery_days: 2,
    rate_table: null,
    zones: [],
    rate_provider: null,
    ...over,
  };
}

/** Zones of the fixture by specificity: `fr-corsica` (postcodes 20*) inside `fr`, inside `eu`. */
function dest(country: string | null, postcode: string | null = null): Destination {
  const contains: Record<string, (c: string, p: string | null) => boolean> = {
    'fr-corsica': (c, p) => c === 'FR' && !!p && p.startsWith('20'),
    fr: (c) => c === 'FR',
    eu: (c) => ['FR', 'DE', 'IT'].includes(c),
  };
  const order = ['fr-corsica', 'fr', 'eu'];
  return {
    country,
    postcode,
    zoneOf: (keys) => order.find((k) => keys.includes(k) && country !== null && contains[k](country, postcode)) ?? null,
  };
}

const parcel = (n: number, value = 10_000) => parcelMeasures([{ quantity: n, grams: 1300 }], value);

describe('quote', () => {
  it('keeps the flat price, free_over and delivery_days of a method without zones or table', () => {
    expect(quote(method(), dest('CH'), parcel(3), cents)).toEqual({
      price: 950,
      zone: null,
      deliveryDays: 2,
      rate: { source: 'flat', basis: null, from: null, to: null, price: 9.5, beyond_blocks: 0, free: false },
    });
    expect(quote(method({ free_over: '100.0000' }), dest('CH'), parcel(3, 10_000), cents)?.price).toBe(0);
    expect(quote(method({ free_over: '100.0000' }), dest('CH'), parcel(3, 9_999), cents)?.price).toBe(950);
    expect(quote(method({ countries: ['DE'] }), dest('CH'), parcel(3), cents)).toBeNull();
  });

  it("prices by the method's rate table and refuses a parcel it does not cover", () => {
    expect(quote(method({ rate_table: bottles }), dest('CH'), parcel(13), cents)?.price).toBe(2600);
    expect(quote(method({ rate_table: { ...bottles, beyond: null } }), dest('CH'), parcel(19), cents)).toBeNull();
  });

  it('serves through the most specific of its zones, with that zone’s table, free_over and delivery_days', () => {
    const m = method({
      rate_table: bottles,
      zones: [
        { zone: 'eu', rate_table: null, free_over: null, delivery_days: 5, excluded_postcodes: [] },
        {
          zone: 'fr',
          rate_table: { basis: 'bottles', steps: [{ from: 1, to: null, price: 7 }], beyond: null },
          free_over: 300,
          delivery_days: 3,
          excluded_postcodes: [],
        },
      ],
    });
    expect(quote(m, dest('DE'), parcel(7), cents)).toMatchObject({ price: 1800, zone: 'eu', deliveryDays: 5 });
    expect(quote(m, dest('FR', '75001'), parcel(7), cents)).toMatchObject({ price: 700, zone: 'fr', deliveryDays: 3 });
    expect(quote(m, dest('FR', '75001'), parcel(7, 30_000), cents)?.price).toBe(0);
    expect(quote(m, dest('CH'), parcel(7), cents)).toBeNull();
    // no address yet: priced by the method's own table
    expect(quote(m, dest(null), parcel(7), cents)).toMatchObject({ price: 1800, zone: null, deliveryDays: 2 });
  });

  it('names the rate row that priced the parcel (kept on the order): the step, the started beyond blocks, free', () => {
    const m = method({ rate_table: bottles, free_over: '500.0000' });
    expect(quote(m, dest('CH'), parcel(7), cents)?.rate).toEqual({
      source: 'table',
      basis: 'bottles',
      from: 7,
      to: 12,
      price: 18,
      beyond_blocks: 0,
      free: false,
    });
    // 25 bottles: the last step (13-18) and two started cases of 6 above it: 26 + 2 x 8
    expect(quote(m, dest('CH'), parcel(25), cents)).toMatchObject({ price: 4200, rate: { from: 13, to: 18, beyond_blocks: 2 } });
    expect(quote(m, dest('CH'), parcel(7, 50_000), cents)).toMatchObject({ price: 0, rate: { source: 'table', from: 7, free: true } });
  });

  it('does not serve an excluded postcode of the zone', () => {
    const m = method({ zones: [{ zone: 'fr', rate_table: null, free_over: null, delivery_days: null, excluded_postcodes: ['20*', '97100..97199'] }] });
    expect(quote(m, dest('FR', '20000'), parcel(1), cents)).toBeNull();
    expect(quote(m, dest('FR', '97150'), parcel(1), cents)).toBeNull();
    expect(quote(m, dest('FR', '97200'), parcel(1), cents)?.price).toBe(950);
    expect(quote(m, dest('FR', '75001'), parcel(1), cents)?.price).toBe(950);
  });
});

describe('postcode patterns', () => {
  it('match exactly, by prefix and by range, ignoring case, spaces and dashes', () => {
    const stored = (p: string) => parseMethodZones([{ zone: 'z', excluded_postcodes: [p] }], 'zones')[0].excluded_postcodes;
    const excluded = (p: string, code: string) => postcodeExcluded(stored(p), code);
    expect(excluded('20000', '20000')).toBe(true);
    expect(excluded('20000', '20001')).toBe(false);
    expect(excluded('ze*', 'ZE1 0AA')).toBe(true);
    expect(excluded('HS*', 'KW1 4AB')).toBe(false);
    expect(excluded('07000..07999', '07500')).toBe(true);
    expect(excluded('07000..07999', '08000')).toBe(false);
    expect(excluded('07000..07999', '0750')).toBe(false);
    expect(excluded('00-950', '00950')).toBe(true);
  });

  it('bounds a zone to 10,000 patterns and checks each', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => String(i));
    expect(() => parseMethodZones([{ zone: 'fr', excluded_postcodes: many }], 'zones')).toThrow('zones[0].excluded_postcodes must hold at most 10000 patterns');
    expect(() => parseMethodZones([{ zone: 'fr', excluded_postcodes: ['20*', '<script>'] }], 'zones')).toThrow(ShippingInputError);
    const ok = parseMethodZones([{ zone: 'fr', excluded_postcodes: many.slice(0, 10_000) }], 'zones');
    const m = method({ zones: ok });
    expect(quote(m, dest('FR', 'A9999'), parcel(1), cents)?.price).toBe(950);
    expect(quote(m, dest('FR', '4711'), parcel(1), cents)).toBeNull(); // the 4,712th pattern of 10,000 is checked too
    expect(quote(m, dest('FR', '9999'), parcel(1), cents)).toBeNull();
  });

  it('refuses a zone named twice and an unknown member', () => {
    expect(() => parseMethodZones([{ zone: 'fr' }, { zone: 'fr' }], 'zones')).toThrow('zones[1].zone names the zone "fr" twice');
    expect(() => parseMethodZones([{ zone: 'fr', price: 1 }], 'zones')).toThrow('zones[0].price is not a zone member');
  });
});

describe('destination rules', () => {
  const rule = (over: Partial<DestinationRuleRow> = {}): DestinationRuleRow => ({
    id: 'r',
    zone: 'us-ut',
    alcohol_shipping: true,
    max_litres_per_order: null,
    max_litres_per_year: null,
    min_age: null,
    ...over,
  });
  const order = (litres: number, litresThisYear: number | null = 0, alcoholic = true) => ({ alcoholic, litres, litresThisYear });

  it('closes a destination to alcohol only', () => {
    expect(judgeDestination(rule({ alcohol_shipping: false }), order(0.75))).toMatchObject({ allowed: false, reasons: [{ code: 'destination_closed' }] });
    expect(judgeDestination(rule({ alcohol_shipping: false }), order(0, 0, false))).toEqual({ allowed: true, reasons: [], minAge: null });
    expect(judgeDestination(null, order(100))).toEqual({ allowed: true, reasons: [], minAge: null });
  });

  it('limits the litres per order and per buyer per calendar year', () => {
    expect(judgeDestination(rule({ max_litres_per_order: '9.000' }), order(9)).allowed).toBe(true);
    expect(judgeDestination(rule({ max_litres_per_order: '9.000' }), order(9.75)).reasons.map((r) => r.code)).toEqual(['volume_limit_exceeded']);
    expect(judgeDestination(rule({ max_litres_per_year: '20' }), order(4.5, 15)).allowed).toBe(true);
    const over = judgeDestination(rule({ max_litres_per_year: '20' }), order(4.5, 16));
    expect(over).toMatchObject({
      allowed: false,
      reasons: [{ code: 'volume_limit_exceeded', message: '20.5 l this calendar year exceeds the limit of 20 l per buyer (zone us-ut)' }],
    });
  });

  it('names a minimum age without refusing the destination', () => {
    expect(judgeDestination(rule({ min_age: 21 }), order(1))).toMatchObject({ allowed: true, minAge: 21, reasons: [{ code: 'age_requirement' }] });
  });

  it('reads litres from the size as written', () => {
    expect([
      litresOfSize({ en: '75 cl' }),
      litresOfSize('75cl'),
      litresOfSize('1,5 L'),
      litresOfSize({ en: '375 ml' }),
      litresOfSize('Magnum'),
      litresOfSize(null),
    ]).toEqual([0.75, 0.75, 1.5, 0.375, 0, 0]);
  });

  it('checks a written rule and merges a partial update', () => {
    expect(parseDestinationRule({ zone: 'us-ut', alcohol_shipping: false }, '')).toEqual({
      zone: 'us-ut',
      alcohol_shipping: false,
      max_litres_per_order: null,
      max_litres_per_year: null,
      min_age: null,
    });
    const base = parseDestinationRule({ zone: 'x', max_litres_per_order: 9, min_age: 21 }, '');
    expect(parseDestinationRule({ min_age: null }, '', base)).toMatchObject({ zone: 'x', max_litres_per_order: 9, min_age: null });
    expect(() => parseDestinationRule({ zone: 'x', max_litres_per_year: -1 }, 'destination_rules[0]')).toThrow(
      'destination_rules[0].max_litres_per_year must be a number of litres from 0 to 1000000',
    );
    expect(() => parseDestinationRule({ alcohol_shipping: true }, '')).toThrow('zone must be the key of a zone of the shop');
  });
});
