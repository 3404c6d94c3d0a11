// The header's search box (issue 35): suggestions as you type, as an ARIA combobox (WAI-ARIA APG "combobox with
// listbox popup"): focus stays in the input, arrows move the active option (aria-activedescendant), Enter picks it
// (or searches what was typed when none is active), Escape closes the list. Also "did you mean" for a search that
// found nothing. Its own words are kept here, in the storefront's two languages.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { didYouMean, suggest, type QuerySuggestion, type Suggestion, type SuggestionGroup } from './api/search';
import { useShop } from './store';
import { collectionHref, productHref } from './urls';

const DEBOUNCE_MS = 150;
const MIN_CHARS = 2;
const LIMIT = 8;
const LIST_ID = 'q-suggestions';

const WORDS = {
  en: { suggestions: 'Suggestions', didYouMean: 'Did you mean' },
  de: { suggestions: 'Vorschläge', didYouMean: 'Meinten Sie' },
};
const words = (locale: string) => (locale.startsWith('de') ? WORDS.de : WORDS.en);

/**
 * Where choosing a suggestion leads: a product's page by its handle (`/wines/<handle>`), a collection's by its handle,
 * or the listing filtered by the suggestion (the id only when an answer lacks the handle).
 */
export function suggestionHref(kind: string, s: Suggestion): string {
  if (kind === 'product') return productHref(s);
  if (kind === 'collection') return collectionHref(s);
  if (!s.filter) return `/?q=${encodeURIComponent(s.label)}`;
  // options of every custom field filter through the one `custom_field_id` parameter of the listing (SPEC)
  const param = s.filter.param.startsWith('custom_field:') ? 'custom_field_id' : s.filter.param;
  return `/?${param}=${encodeURIComponent(s.filter.value)}`;
}

const optionId = (i: number) => `${LIST_ID}-${i}`;

export function SearchBox() {
  const { locale, t } = useShop();
  const w = words(locale);
  const search = new URLSearchParams(useSearch());
  const [location, navigate] = useLocation();
  const [q, setQ] = useState(location === '/' ? (search.get('q') ?? '') : '');
  const [groups, setGroups] = useState<SuggestionGroup[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useRef(false);
  // bumped by every search and choice: an answer to a request made before it is dropped, not shown over the new page
  const generation = useRef(0);

  // the page's query changed (back, a "did you mean" link): show it
  const pageQ = location === '/' ? (search.get('q') ?? '') : '';
  useEffect(() => {
    typed.current = false;
    setQ(pageQ);
  }, [pageQ]);

  // suggestions for what was typed, DEBOUNCE_MS after the last key; an older answer never replaces a newer one
  useEffect(() => {
    const text = q.trim();
    if (!typed.current || text.length < MIN_CHARS) {
      setGroups([]);
      setOpen(false);
      return;
    }
    const abort = new AbortController();
    const asked = generation.current;
    const timer = setTimeout(() => {
      suggest(text, LIMIT, abort.signal)
        .then((found) => {
          if (asked !== generation.current) return;
          const nonEmpty = found.filter((g) => g.items.length > 0);
          setGroups(nonEmpty);
          setActive(-1);
          setOpen(nonEmpty.length > 0);
        })
        .catch(() => undefined); // aborted, or no suggestions to offer: the box still searches on Enter
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [q, locale]);

  const flat = groups.flatMap((g) => g.items.map((item) => ({ kind: g.kind, item })));

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const leave = () => {
    generation.current += 1;
    typed.current = false;
    close();
  };
  const choose = (i: number) => {
    const chosen = flat[i];
    if (!chosen) return;
    leave();
    setQ('');
    navigate(suggestionHref(chosen.kind, chosen.item));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    leave();
    navigate(q.trim() ? `/?q=${encodeURIComponent(q.trim())}` : '/');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (flat.length === 0) return;
      e.preventDefault();
      const down = e.key === 'ArrowDown';
      const last = flat.length - 1;
      // a closed list opens on the first (or last) option; an open one moves, wrapping at either end
      setActive((i) => (!open || i < 0 ? (down ? 0 : last) : down ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1));
      setOpen(true);
    } else if (e.key === 'Enter' && open && active >= 0 && active < flat.length) {
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape') {
      if (open) e.preventDefault();
      close();
    }
  };

  const expanded = open && flat.length > 0;
  const activeId = expanded && active >= 0 && active < flat.length ? optionId(active) : undefined;
  let index = -1;
  return (
    <form role="search" className="search" onSubmit={submit}>
      <label htmlFor="q" className="sr-only">
        {t('search')}
      </label>
      <div className="search-field">
        <input
          id="q"
          type="search"
          name="q"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={LIST_ID}
          aria-activedescendant={activeId}
          placeholder={t('search')}
          value={q}
          onChange={(e) => {
            typed.current = true;
            setQ(e.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
        />
        <div id={LIST_ID} role="listbox" aria-label={w.suggestions} className="suggestions" hidden={!expanded}>
          {expanded &&
            groups.map((g) => (
              <div role="group" aria-labelledby={`${LIST_ID}-${g.kind}`} key={g.kind} className="suggestion-group" data-kind={g.kind}>
                <div role="presentation" id={`${LIST_ID}-${g.kind}`} className="suggestion-kind">
                  {g.label}
                </div>
                {g.items.map((item) => {
                  index += 1;
                  const i = index;
                  return (
                    <div
                      role="option"
                      id={optionId(i)}
                      key={`${g.kind}:${item.id}`}
                      aria-selected={i === active}
                      className="suggestion"
                      // mousedown, not click: the input keeps the focus, so its blur does not close the list first
                      onMouseDown={(e) => {
                        e.preventDefault();
                        choose(i);
                      }}
                      onMouseMove={() => setActive(i)}
                    >
                      <span className="suggestion-label">{item.label}</span> <span className="count">{item.count}</span>
                    </div>
                  );
                })}
              </div>
            ))}
        </div>
      </div>
      <button type="submit">{t('searchButton')}</button>
    </form>
  );
}

/** For a search that found nothing: the closest terms, each a link to its search. Renders nothing when there are none. */
export function DidYouMean({ q }: { q: string }) {
  const { locale } = useShop();
  const w = words(locale);
  const [terms, setTerms] = useState<QuerySuggestion[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    setTerms([]);
    didYouMean(q, abort.signal)
      .then(setTerms)
      .catch(() => undefined);
    return () => abort.abort();
  }, [q, locale]);
  if (terms.length === 0) return null;
  return (
    <p className="did-you-mean">
      {w.didYouMean}{' '}
      {terms.slice(0, 3).map((s, i) => (
        <span key={s.q}>
          {i > 0 && ', '}
          <Link href={`/?q=${encodeURIComponent(s.q)}`}>{s.q}</Link> <span className="count">({s.count})</span>
        </span>
      ))}
      ?
    </p>
  );
}
