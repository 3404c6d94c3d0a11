/** One page of a cursored list; the envelope interceptor turns `nextPageInfo` into the Link header. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly limit: number,
    readonly nextPageInfo: string | null,
    /** Members placed beside the list in the envelope (for example `price_range`). */
    readonly extras: Record<string, unknown> = {},
  ) {}

  map<U>(fn: (item: T) => U): Page<U> {
    return new Page(this.items.map(fn), this.limit, this.nextPageInfo, this.extras);
  }

  with(extras: Record<string, unknown>): Page<T> {
    return new Page(this.items, this.limit, this.nextPageInfo, { ...this.extras, ...extras });
  }
}
