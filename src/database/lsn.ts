/**
 * PostgreSQL WAL positions (`pg_lsn`, text `X/Y` in hex) as plain numbers, and the rule deciding whether a read
 * replica may serve rows (issue 14): it may once it has replayed the WAL up to the position the rows were last
 * changed at. Positions below 2^53 bytes of WAL (8 PiB) are exact as numbers.
 */

/** `X/Y` (hex halves) as a number; 0 for null or empty. */
export function parseLsn(text: string | null | undefined): number {
  if (!text) return 0;
  const [hi, lo] = text.split('/');
  const n = parseInt(hi, 16) * 2 ** 32 + parseInt(lo ?? '0', 16);
  return Number.isFinite(n) ? n : 0;
}

/**
 * Whether a replica whose replay position is `replayLsn` (as last measured; null: unknown) may serve rows whose
 * latest change is at `changeLsn` (null: unknown). Unknown on either side: no, read the primary.
 */
export function replicaMayServe(replayLsn: number | null, changeLsn: number | null): boolean {
  return replayLsn !== null && changeLsn !== null && replayLsn > 0 && replayLsn >= changeLsn;
}
