// Search suggestions and "did you mean" (issue 35) over the same client as every other call (its middleware sets the
// token and the language). The two members below are declared as README "Search" documents them, merged with the
// types generated into ../../../openapi-client/schema.d.ts: once the generated schema carries the suggest route and
// `meta.suggestions`, its types join these by intersection (a mismatch between the two shows as a type error).
import type { Client } from 'openapi-fetch';
import type { paths } from '../../../openapi-client/schema';
import { api, ok } from './client';

/** One suggestion: a product or collection (opened by `id`, with its `handle`), or a value to filter the listing by. */
export interface Suggestion {
  id: string;
  label: string;
  /** Visible products it leads to. */
  count: number;
  /** Facet values, producers and categories: the listing parameter and value that select it. */
  filter?: { param: string; value: string };
  /** Products and collections. */
  handle?: string | null;
}

/** A group of suggestions of one kind (`product`, `producer`, a facet kind such as `grape`, `category`, `collection`). */
export interface SuggestionGroup {
  kind: string;
  /** The kind's name in the active language ("Grape"). */
  label: string;
  items: Suggestion[];
}

/** A "did you mean" term: the query to run instead, and how many products it finds. */
export interface QuerySuggestion {
  q: string;
  count: number;
}

interface SearchPaths {
  '/api/2026-04-01/search/suggest': {
    get: {
      parameters: { query: { q: string; limit?: number; locale?: string } };
      responses: { 200: { content: { 'application/json': { data: SuggestionGroup[] } } } };
    };
  };
}

const searchApi = api as unknown as Client<paths & SearchPaths>;

/** Up to `limit` suggestions for what was typed, grouped by kind in the API's order. */
export async function suggest(q: string, limit: number, signal: AbortSignal): Promise<SuggestionGroup[]> {
  return ok(await searchApi.GET('/api/2026-04-01/search/suggest', { params: { query: { q, limit } }, signal })).data;
}

/** The closest terms for a search that found nothing (`include=suggestions`), best first; empty when there are none. */
export async function didYouMean(q: string, signal: AbortSignal): Promise<QuerySuggestion[]> {
  const data = ok(await api.GET('/api/2026-04-01/products', { params: { query: { q, include: 'suggestions', limit: 1 } }, signal }));
  const meta = (data as { meta?: { suggestions?: QuerySuggestion[] } }).meta;
  return meta?.suggestions ?? [];
}
