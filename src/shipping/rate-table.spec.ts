import { minorRateTable, parcelMeasures, parseRateTable, rateFor, ShippingInputError } from './rate-table.js';

const cents = (x: number) => Math.round(x * 100);
const table = (raw: unknown) => minorRateTable(parseRateTable(raw, 'rate_table'), cents);
const refused = (raw: unknown): string => {
  try {
    parseRateTable(raw, 'rate_table');
  } catch (e) {
    if (e instanceof ShippingInputError) return e.message;
    throw e;
  }
  throw new Error('accepted');
};

// the example: 1–6: 12.00, 7–12: 18.00, 13–18: 26.00, then per started case of 6 (8.00 each)
const cases = {
  basis: 'bottles',
  steps: [
    { from: 1, to: 6, price: 12 },
    { from: 7, to: 12, price: 18 },
    { from: 13, to: 18, price: 26 },
  ],
  beyond: { every: 6, price: 8 },
};

/** Brute force: walk the measure one unit at a time past the last step. */
function bruteBottles(n: number): number | null {
  if (n < 1) return null;
  if (n <= 6) return 1200;
  if (n <= 12) return 1800;
  if (n <= 18) return 2600;
  let price = 2600;
  for (let used = 18; used < n; used += 6) price += 800;
  return price;
}

describe('rate table: bottle count', () => {
  const t = table(cases);

  it('prices each step inclusive at both ends', () => {
    expect([1, 6, 7, 12, 13, 18].map((n) => rateFor(t, n))).toEqual([1200, 1200, 1800, 1800, 2600, 2600]);
  });

  it('adds one case price per started case beyond the last step', () => {
    expect(rateFor(t, 19)).toBe(3400);
    expect(rateFor(t, 24)).toBe(3400);
    expect(rateFor(t, 25)).toBe(4200);
    for (let n = 0; n <= 200; n++) expect(rateFor(t, n)).toBe(bruteBottles(n));
  });

  it('cannot serve a parcel the table does not cover', () => {
    expect(rateFor(t, 0)).toBeNull();
    const capped = table({ ...cases, beyond: null });
    expect(rateFor(capped, 18)).toBe(2600);
    expect(rateFor(capped, 19)).toBeNull();
  });

  it('serves any count with an open-ended last step', () => {
    const open = table({
      basis: 'bottles',
      steps: [
        { from: 0, to: 12, price: 10 },
        { from: 13, to: null, price: 0 },
      ],
    });
    expect(rateFor(open, 0)).toBe(1000);
    expect(rateFor(open, 10_000)).toBe(0);
  });
});

describe('rate table: weight and value', () => {
  it('prices by grams', () => {
    const t = table({
      basis: 'grams',
      steps: [
        { from: 0, to: 2000, price: 7.5 },
        { from: 2001, to: 10_000, price: 11 },
      ],
      beyond: { every: 5000, price: 4.25 },
    });
    expect(rateFor(t, 2000)).toBe(750);
    expect(rateFor(t, 2001)).toBe(1100);
    expect(rateFor(t, 15_000)).toBe(1525);
    expect(rateFor(t, 15_001)).toBe(1950);
  });

  it('prices by order value with half-open steps in minor units', () => {
    const t = table({
      basis: 'value',
      steps: [
        { from: 0, to: 50, price: 9.9 },
        { from: 50, to: 150, price: 4.9 },
        { from: 150, to: null, price: 0 },
      ],
    });
    expect(rateFor(t, 4999)).toBe(990);
    expect(rateFor(t, 5000)).toBe(490);
    expect(rateFor(t, 14_999)).toBe(490);
    expect(rateFor(t, 15_000)).toBe(0);
  });

  it('measures a parcel from its lines', () => {
    expect(
      parcelMeasures(
        [
          { quantity: 6, grams: 1300 },
          { quantity: 2, grams: null },
        ],
        12_345,
      ),
    ).toEqual({ bottles: 8, grams: 7800, value: 12_345 });
  });
});

describe('rate table: refused at write time', () => {
  it('refuses a gap between steps, naming the step', () => {
    expect(
      refused({
        basis: 'bottles',
        steps: [
          { from: 1, to: 6, price: 1 },
          { from: 8, to: 12, price: 2 },
        ],
      }),
    ).toBe('rate_table.steps[1].from leaves a gap after step 0 (expected 7)');
    expect(
      refused({
        basis: 'value',
        steps: [
          { from: 0, to: 50, price: 1 },
          { from: 50.01, to: null, price: 2 },
        ],
      }),
    ).toMatch(/steps\[1\]\.from leaves a gap/);
  });

  it('refuses overlapping steps', () => {
    expect(
      refused({
        basis: 'bottles',
        steps: [
          { from: 1, to: 6, price: 1 },
          { from: 6, to: 12, price: 2 },
        ],
      }),
    ).toBe('rate_table.steps[1].from overlaps step 0 (expected 7)');
    expect(
      refused({
        basis: 'value',
        steps: [
          { from: 0, to: 50, price: 1 },
          { from: 40, to: null, price: 2 },
        ],
      }),
    ).toMatch(/steps\[1\]\.from overlaps/);
  });

  it('refuses a gap below the first step, an open step before the last, an inverted step', () => {
    expect(refused({ basis: 'bottles', steps: [{ from: 2, to: 6, price: 1 }] })).toMatch(/steps\[0\]\.from leaves a gap/);
    expect(refused({ basis: 'value', steps: [{ from: 10, to: null, price: 1 }] })).toMatch(/steps\[0\]\.from leaves a gap/);
    expect(
      refused({
        basis: 'bottles',
        steps: [
          { from: 1, to: null, price: 1 },
          { from: 7, to: 12, price: 2 },
        ],
      }),
    ).toBe('rate_table.steps[0].to may be null (open-ended) only on the last step');
    expect(refused({ basis: 'bottles', steps: [{ from: 6, to: 1, price: 1 }] })).toBe('rate_table.steps[0].to must be at least from');
  });

  it('refuses bad members with their path', () => {
    expect(refused({ basis: 'litres', steps: [] })).toBe('rate_table.basis must be one of bottles, grams, value');
    expect(refused({ basis: 'bottles', steps: [] })).toBe('rate_table.steps must be a non-empty array');
    expect(refused({ basis: 'bottles', steps: [{ from: 1.5, to: 6, price: 1 }] })).toBe('rate_table.steps[0].from must be a whole number');
    expect(refused({ basis: 'bottles', steps: [{ from: 1, to: 6, price: -1 }] })).toBe('rate_table.steps[0].price must be at least 0');
    expect(refused({ basis: 'bottles', steps: [{ from: 1, to: 6, price: 1 }], beyond: { every: 0, price: 1 } })).toBe(
      'rate_table.beyond.every must be at least 1',
    );
    expect(refused({ basis: 'bottles', steps: [{ from: 1, to: null, price: 1 }], beyond: { every: 6, price: 1 } })).toBe(
      'rate_table.beyond overlaps the open-ended last step',
    );
    expect(refused({ basis: 'bottles', steps: [{ from: 1, to: 6, price: 1, extra: 1 }] })).toBe('rate_table.steps[0].extra is not a step member');
  });
});
