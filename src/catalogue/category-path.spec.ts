import { describe, expect, it } from '@jest/globals';
import { categoryPathOf } from './category-path.js';

// wine > red > merlot, wine > white > chardonnay, sparkling
const PATHS: Record<string, string[]> = {
  wine: ['wine'],
  red: ['wine', 'red'],
  merlot: ['wine', 'red', 'merlot'],
  white: ['wine', 'white'],
  chardonnay: ['wine', 'white', 'chardonnay'],
  sparkling: ['sparkling'],
};
const path = (assigned: string[]) => categoryPathOf(assigned, (id) => PATHS[id]);

describe('categoryPathOf', () => {
  it('is empty without a category', () => {
    expect(path([])).toEqual([]);
  });

  it('is the chain to the deepest assigned category, whatever the order of assignment', () => {
    expect(path(['white', 'chardonnay'])).toEqual(['wine', 'white', 'chardonnay']);
    expect(path(['chardonnay', 'white'])).toEqual(['wine', 'white', 'chardonnay']);
    expect(path(['wine', 'red', 'merlot'])).toEqual(['wine', 'red', 'merlot']);
  });

  it('on two branches, takes the deepest of the first assigned category’s branch', () => {
    expect(path(['red', 'sparkling'])).toEqual(['wine', 'red']);
    expect(path(['sparkling', 'merlot'])).toEqual(['sparkling']);
    expect(path(['red', 'chardonnay', 'merlot'])).toEqual(['wine', 'red', 'merlot']);
    // the first's descendants on two sub-branches: the one assigned first of the deepest
    expect(path(['wine', 'white', 'red', 'chardonnay'])).toEqual(['wine', 'white', 'chardonnay']);
    expect(path(['wine', 'red', 'white'])).toEqual(['wine', 'red']);
  });

  it('takes an unknown category (not yet in the name snapshot) as a root', () => {
    expect(path(['x'])).toEqual(['x']);
    expect(path(['x', 'red'])).toEqual(['x']);
  });
});
