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
