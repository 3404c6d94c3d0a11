import { ApiExtension } from '@nestjs/swagger';

/** Extension read (and removed) by `finalizeOpenApi`: machine `code` values an operation may answer, per status. */
export const ERROR_CODES_EXTENSION = 'x-error-codes';

/**
 * Documents the `code` values of an operation's error answers, per status, e.g.
 * `@ApiErrors({ 422: ['checkout_empty'], 409: ['checkout_completed'] })`. A status listed here is documented even when
 * the generic rules of `finalizeOpenApi` would not add it; its envelope's `code` becomes an enum of these values.
 */
export function ApiErrors(codes: Partial<Record<number, string[]>>): MethodDecorator {
  return ApiExtension(ERROR_CODES_EXTENSION, codes) as MethodDecorator;
}
