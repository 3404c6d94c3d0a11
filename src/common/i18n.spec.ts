import { toTranslations, translate, withTranslation } from './i18n.js';

const ctx = { language: 'de', defaultLanguage: 'en' };

describe('translate', () => {
  it('prefers the active language, then the default, then any language there is', () => {
    expect(translate({ en: 'Red', de: 'Rot' }, ctx)).toBe('Rot');
    expect(translate({ en: 'Red', fr: 'Rouge' }, ctx)).toBe('Red');
    expect(translate({ fr: 'Rouge' }, ctx)).toBe('Rouge');
  });

  it('keeps an empty text of the active language rather than falling back', () => {
    expect(translate({ en: 'Red', de: '' }, ctx)).toBe('');
  });

  it('null for no map or an empty one', () => {
    expect(translate(null, ctx)).toBeNull();
    expect(translate(undefined, ctx)).toBeNull();
    expect(translate({}, ctx)).toBeNull();
  });
});

describe('withTranslation', () => {
  it('returns a copy with the language set, or removed for null', () => {
    const map = { en: 'Red', de: 'Rot' };
    expect(withTranslation(map, 'fr', 'Rouge')).toEqual({ en: 'Red', de: 'Rot', fr: 'Rouge' });
    expect(withTranslation(map, 'de', null)).toEqual({ en: 'Red' });
    expect(map).toEqual({ en: 'Red', de: 'Rot' });
    expect(withTranslation(null, 'en', 'Red')).toEqual({ en: 'Red' });
    expect(withTranslation(undefined, 'en', null)).toEqual({});
  });
});

describe('toTranslations', () => {
  it('a plain string is the default language; a map is copied; nothing is empty', () => {
    expect(toTranslations('Red', 'en')).toEqual({ en: 'Red' });
    const map = { de: 'Rot' };
    const copy = toTranslations(map, 'en');
    expect(copy).toEqual({ de: 'Rot' });
    expect(copy).not.toBe(map);
    expect(toTranslations(null, 'en')).toEqual({});
    expect(toTranslations(undefined, 'en')).toEqual({});
  });
});
