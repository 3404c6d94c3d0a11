import { describe, expect, it } from '@jest/globals';
import { matchingZones, matchZone, parsePostcodePattern, type MatchableZone, zoneIndexOf } from './zone-matcher.js';

const zone = (id: string, z: Partial<MatchableZone>): MatchableZone => ({ id, countries: [], regions: [], postcodes: [], ...z });

describe('parsePostcodePattern', () => {
  it('reads exact, prefix and range patterns, normalised', () => {
    expect(parsePostcodePattern('27498')).toEqual({ kind: 'exact', value: '27498' });
    expect(parsePostcodePattern('hs 1*')).toEqual({ kind: 'prefix', value: 'HS1' });
    expect(parsePostcodePattern('22060..22061')).toEqual({ kind: 'range', from: '22060', to: '22061' });
    expect(parsePostcodePattern('SW1A-1AA')).toEqual({ kind: 'exact', value: 'SW1A1AA' });
  });

  it('refuses malformed patterns', () => {
    for (const bad of ['', '*', '2*7', '22061..22060', '100..2000', 'a/b', 'x'.repeat(17), '1'.repeat(17) + '..' + '2'.repeat(17)]) {
      expect(parsePostcodePattern(bad)).toBeNull();
    }
  });
});

describe('matchZone', () => {
  const de = zone('b-de', { countries: ['DE'] });
  const eu = zone('c-eu', { countries: ['DE', 'FR', 'IT'] });
  const heligoland = zone('z-helgoland', { postcodes: [{ country: 'DE', pattern: '27498' }] });
  const hamburg = zone('y-hamburg', { postcodes: [{ country: 'DE', pattern: '20*' }] });
  const hamburgCentre = zone('x-hh-centre', { postcodes: [{ country: 'DE', pattern: '200*' }] });
  const livigno = zone('w-livigno', { postcodes: [{ country: 'IT', pattern: '23030..23041' }] });
  const canaries = zone('v-canaries', { regions: ['ES-CN'] });
  const spain = zone('u-es', { countries: ['ES'] });
  const all = [hamburg, eu, heligoland, de, livigno, canaries, spain, hamburgCentre];

  it('finds nothing for an unknown or missing country', () => {
    expect(matchZone(all, { country: 'CH' })).toBeNull();
    expect(matchZone(all, { country: null, postcode: '27498' })).toBeNull();
    expect(matchZone(all, { country: 'ZZ' })).toBeNull();
  });

  it('a country match; ties at one level go to the smallest id whatever the order', () => {
    expect(matchZone(all, { country: 'de' })).toEqual({ zone: de, level: 'country' });
    expect(matchZone([...all].reverse(), { country: 'DE' })?.zone).toBe(de);
    expect(matchZone(all, { country: 'FR', postcode: '75001' })).toEqual({ zone: eu, level: 'country' });
  });

  it('postcode beats region beats country', () => {
    expect(matchZone(all, { country: 'DE', postcode: '27498' })).toEqual({ zone: heligoland, level: 'postcode' });
    expect(matchZone(all, { country: 'ES', region: 'CN', postcode: '35001' })).toEqual({ zone: canaries, level: 'region' });
    expect(matchZone(all, { country: 'ES', region: 'ES-CN' })?.zone).toBe(canaries);
    expect(matchZone(all, { country: 'ES', region: 'MD' })?.zone).toBe(spain);
    const canaryPostcodes = zone('zz', { postcodes: [{ country: 'ES', pattern: '35*' }] });
    expect(matchZone([...all, canaryPostcodes], { country: 'ES', region: 'CN', postcode: '35001' })?.zone).toBe(canaryPostcodes);
  });

  it('among postcodes: exact > range > longer prefix > shorter prefix', () => {
    expect(matchZone(all, { country: 'DE', postcode: '20095' })?.zone).toBe(hamburgCentre);
    expect(matchZone(all, { country: 'DE', postcode: '21000' })?.zone).toBe(de);
    expect(matchZone(all, { country: 'DE', postcode: '20195' })?.zone).toBe(hamburg);
    const exact = zone('zzz', { postcodes: [{ country: 'IT', pattern: '23041' }] });
    const prefix = zone('a', { postcodes: [{ country: 'IT', pattern: '2304*' }] });
    expect(matchZone([livigno, prefix], { country: 'IT', postcode: '23041' })?.zone).toBe(livigno);
    expect(matchZone([livigno, prefix, exact], { country: 'IT', postcode: '23041' })?.zone).toBe(exact);
    expect(matchZone(all, { country: 'IT', postcode: '23042' })?.zone).toBe(eu);
    expect(matchZone(all, { country: 'IT', postcode: '2304' })?.zone).toBe(eu);
  });

  it('a postcode pattern only applies to its own country', () => {
    expect(matchZone(all, { country: 'FR', postcode: '27498' })?.zone).toBe(eu);
  });

  it('matchingZones lists every containing zone once, most specific first', () => {
    expect(matchingZones(all, { country: 'DE', postcode: '20095' }).map((m) => [m.zone.id, m.level])).toEqual([
      ['x-hh-centre', 'postcode'],
      ['y-hamburg', 'postcode'],
      ['b-de', 'country'],
      ['c-eu', 'country'],
    ]);
  });

  it('10,000 postcode patterns: compiled once, a match reads no pattern (hash lookups only)', () => {
    const zones: MatchableZone[] = [];
    for (let z = 0; z < 100; z++) {
      const postcodes = Array.from({ length: 100 }, (_, i) => ({ country: 'DE', pattern: String(10000 + z * 100 + i) }));
      postcodes.push({ country: 'DE', pattern: `${z}*` });
      zones.push(zone(`zone-${String(z).padStart(3, '0')}`, { countries: z === 0 ? ['DE'] : [], postcodes }));
    }
    const index = zoneIndexOf(zones);
    expect(zoneIndexOf(zones)).toBe(index); // compiled once per array
    // from here on, any read of a zone's patterns is counted: matching must go through the compiled maps only (the
    // speed itself is the tax bench's business, `npm run bench:tax`, not a timed test)
    let patternReads = 0;
    for (const z of zones) {
      const postcodes = z.postcodes;
      Object.defineProperty(z, 'postcodes', {
        get: () => {
          patternReads += 1;
          return postcodes;
        },
      });
    }
    const wrong: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const n = 10000 + ((i * 7) % 10000);
      const m = matchZone(index, { country: 'DE', postcode: String(n) });
      if (m?.zone.id !== `zone-${String(Math.floor((n - 10000) / 100)).padStart(3, '0')}`) wrong.push(n);
    }
    expect(wrong).toEqual([]);
    expect(matchZone(zones, { country: 'DE', postcode: '9' + '9'.repeat(40) })?.zone.id).toBe('zone-000');
    expect(patternReads).toBe(0);
  });
});
