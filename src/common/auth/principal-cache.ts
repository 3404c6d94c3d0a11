/**
 * Resolved bearer tokens reused for a short while per instance instead of a database lookup per request (staff
 * tokens in `AuthService`, shopper tokens in `CustomerAuthService`), kept correct by drops:
 *
 * - Nothing is served or stored while `listening()` is false (the cache bus, whose messages drop entries, is down).
 * - An entry lives at most `ttlMs`, and never past the token's own expiry.
 * - `drop(tenantId)` forgets a tenant's entries (null: every tenant's) and bumps an epoch; a lookup that began
 *   before a drop (`begin()` taken before it) stores nothing, since what it read may be what the drop was about.
 * - At most `max` entries, least recently stored out.
 *
 * Keys are token hashes, never tokens.
 */
export class PrincipalCache<P> {
  private readonly entries = new Map<string, { at: number; expiresAt: number; tenantId: string; principal: P }>();
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly listening: () => boolean,
  ) {}

  /** The cached principal of a token hash, if still fresh. */
  get(key: string): P | undefined {
    const hit = this.entries.get(key);
    if (!hit || !this.listening()) return undefined;
    const now = Date.now();
    return now - hit.at < this.ttlMs && now < hit.expiresAt ? hit.principal : undefined;
  }

  /** Call before the lookup: `set` stores its result only if no drop happened meanwhile. */
  begin(): number {
    return this.epoch;
  }

  set(key: string, epoch: number, tenantId: string, principal: P, expiresAt = Number.POSITIVE_INFINITY): void {
    if (epoch !== this.epoch || !this.listening()) return;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: Date.now(), expiresAt, tenantId, principal });
  }

  /** Forgets a tenant's entries (null: every tenant's). */
  drop(tenantId: string | null): void {
    this.epoch += 1;
    if (tenantId === null) this.entries.clear();
    else for (const [key, e] of this.entries) if (e.tenantId === tenantId) this.entries.delete(key);
  }
}
