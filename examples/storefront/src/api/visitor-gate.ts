// The visitor cookie race. The API sets its `visitor_id` cookie on the first storefront response of a browser that
// sends none (CONTRACT.md), so every request sent before the first answer arrived mints an id of its own, and the
// browser keeps whichever cookie arrives last. A cart created under one id by "Add to cart" was lost when a slower
// first read (the page's first GET /cart, say) then answered and set another. The gate holds a write until every
// request sent without the cookie has answered, so the cookie no longer changes after it; reads never wait, and once
// this browser has had an answer (remembered in localStorage, like the cookie it got) there is nothing to wait for.

export class VisitorGate {
  /** Requests sent before this browser had its cookie, still waiting for their answer. */
  private early = 0;
  private readonly waiting: Array<() => void> = [];

  /** `established`: this browser already holds the cookie (an earlier page had an answer). */
  constructor(
    private established: boolean,
    private readonly onEstablished: () => void = () => undefined,
  ) {}

  /** Before sending: resolves when the request may go, with whether it goes without the cookie (give it to `done`). */
  async before(method: string): Promise<boolean> {
    const write = method !== 'GET' && method !== 'HEAD';
    if (write && this.early > 0) await new Promise<void>((go) => this.waiting.push(go));
    if (this.established) return false;
    this.early += 1;
    return true;
  }

  /** After the answer (`status`) or a network failure (null), with what `before` returned. */
  done(early: boolean, status: number | null): void {
    // an answer below 400 has passed the API's guard, which sets the cookie on it
    if (status !== null && status < 400 && !this.established) {
      this.established = true;
      this.onEstablished();
    }
    if (!early) return;
    this.early -= 1;
    if (this.early === 0) for (const go of this.waiting.splice(0)) go();
  }
}
