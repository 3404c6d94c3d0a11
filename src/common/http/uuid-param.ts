import { Param, ParseUUIDPipe } from '@nestjs/common';
import { AppError } from './app-error.js';

/** A path id that must be a UUID: anything else is 422 naming the parameter. */
export const UuidParam = (name: string) => Param(name, new ParseUUIDPipe({ exceptionFactory: () => AppError.unprocessable(`${name} must be a UUID`) }));
