import { describe, expect, it } from '@jest/globals';
import { checkedZoneAreas } from './zone-rules.js';

describe('checkedZoneAreas', () => {
  it('normalises codes and patterns and drops duplicates', () => {
    expect(
      checkedZoneAreas({
        countries: ['de', 'DE', ' fr '],
        regions: ['es-cn'],
        postcodes: [
          { country: 'gb', pattern: 'hs*' },
          { country: 'GB', pattern: 'HS*' },
        ],
      }),
    ).toEqual({ countries: ['DE', 'FR'], regions: ['ES-CN'], postcodes: [{ country: 'GB', pattern: 'HS*' }] });
  });

  it('refuses unknown countries, malformed regions and patterns, naming the member, and an empty zone', () => {
    expect(() => checkedZoneAreas({ countries: ['DE', 'XX'] })).toThrow(/countries\[1\]/);
    expect(() => checkedZoneAreas({ countries: ['DEU'] })).toThrow(/countries\[0\]/);
    expect(() => checkedZoneAreas({ regions: ['XX-AB'] })).toThrow(/regions\[0\]/);
    expect(() => checkedZoneAreas({ regions: ['ES-TOOLONG'] })).toThrow(/regions\[0\]/);
    expect(() => checkedZoneAreas({ postcodes: [{ country: 'DE', pattern: '9..1' }] })).toThrow(/postcodes\[0\]\.pattern/);
    expect(() => checkedZoneAreas({ postcodes: [{ country: 'QQ', pattern: '1' }] })).toThrow(/postcodes\[0\]\.country/);
    expect(() => checkedZoneAreas({})).toThrow(/at least one/);
  });
});
