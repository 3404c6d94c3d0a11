/** Assertions on the client errors (`AppError`) that pure functions throw, for unit specs. */
import { expect } from '@jest/globals';
import { AppError } from '../../src/common/http/app-error.js';

/** The message of the 422 `AppError` that `fn` throws; fails the test when it throws anything else or nothing. */
export function unprocessable(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    return (err as AppError).message;
  }
  throw new Error('expected a 422 AppError, nothing was thrown');
}

/** The status of the `AppError` that `promise` rejects with (-1 for another error, null when it resolves). */
export async function rejectedStatus(promise: Promise<unknown>): Promise<number | null> {
  try {
    await promise;
    return null;
  } catch (err) {
    return err instanceof AppError ? err.status : -1;
  }
}
