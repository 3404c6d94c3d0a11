import type { Translations } from './db/base.entity.js';
import type { RequestContext } from './context/request-context.js';

/** Text in the active language, falling back to the default language, then to any language there is. */
export function translate(map: Translations | null | undefined, ctx: Pick<RequestContext, 'language' | 'defaultLanguage'>): string | null {
  if (!map) return null;
  if (map[ctx.language] !== undefined) return map[ctx.language];
  if (map[ctx.defaultLanguage] !== undefined) return map[ctx.defaultLanguage];
  const first = Object.values(map)[0];
  return first ?? null;
}

/** A copy of `map` with the active language's text set (null removes it). */
export function withTranslation(map: Translations | null | undefined, language: string, value: string | null): Translations {
  const next = { ...(map ?? {}) };
  if (value === null) delete next[language];
  else next[language] = value;
  return next;
}

/** Import format: `{"en": "Red", "de": "Rot"}` or a plain string in the default language. */
export function toTranslations(value: string | Translations | null | undefined, defaultLanguage: string): Translations {
  if (value === null || value === undefined) return {};
  if (typeof value === 'string') return { [defaultLanguage]: value };
  return { ...value };
}
