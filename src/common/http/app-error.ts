import { HttpStatus } from '@nestjs/common';

/** An error meant for the client: status, human text, and (where the API promises one) a machine code. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  static notFound(what = 'resource'): AppError {
    return new AppError(HttpStatus.NOT_FOUND, `${what} not found`);
  }
  static unprocessable(message: string, code?: string): AppError {
    return new AppError(HttpStatus.UNPROCESSABLE_ENTITY, message, code);
  }
  static conflict(message: string, code?: string): AppError {
    return new AppError(HttpStatus.CONFLICT, message, code);
  }
  static unauthorized(message = 'a valid access token is required', code?: string): AppError {
    return new AppError(HttpStatus.UNAUTHORIZED, message, code);
  }
  static forbidden(message: string, code?: string): AppError {
    return new AppError(HttpStatus.FORBIDDEN, message, code);
  }
  static payloadTooLarge(message = 'request body too large'): AppError {
    return new AppError(HttpStatus.PAYLOAD_TOO_LARGE, message);
  }
}

/** The one error envelope of SPEC "Errors". */
export interface ErrorEnvelope {
  errors: string | null;
  code?: string;
  request_id?: string;
}
