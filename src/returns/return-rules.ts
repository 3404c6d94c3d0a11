/**
 * The rules of returns and claims (issue 33), pure. Quantities are in thousandths (milli-units) like order lines.
 */
import type { ReturnLineData, ReturnRow } from './returns.repository.js';

export const milli = (q: number | string) => Math.round(Number(q) * 1000);

/** Units of a line that may still be asked back: shipped, less what open or finished returns already hold. */
export function returnableMilli(fulfilledMilli: number, lineId: string, returns: readonly ReturnRow[]): number {
  const held = returns
    .filter((r) => r.status !== 'rejected')
    .flatMap((r) => r.lines)
    .filter((l) => l.line_id === lineId)
    .reduce((a, l) => a + milli(l.quantity), 0);
  return fulfilledMilli - held;
}

/** True while a shopper may still ask for a return: within `days` of the last shipment. */
export function withinWindow(lastShippedAt: Date | null, days: number, now = new Date()): boolean {
  if (!lastShippedAt) return false;
  return now.getTime() <= lastShippedAt.getTime() + days * 86_400_000;
}

/** Which states allow which step. */
export const CAN = {
  approve: ['requested'],
  reject: ['requested', 'approved'],
  receive: ['requested', 'approved'],
  refund: ['received'],
} as const satisfies Record<string, readonly ReturnRow['status'][]>;

/** Units that came back (sellable or damaged) of a received line. */
export function backMilli(l: ReturnLineData): number {
  return milli(l.quantity_received) + milli(l.quantity_damaged);
}
