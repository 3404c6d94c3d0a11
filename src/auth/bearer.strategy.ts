import { Injectable } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { AppError } from '../common/http/app-error.js';
import { AuthService, Principal } from './auth.service.js';

/** passport-http-bearer: turns `Authorization: Bearer <token>` into a Principal (or a 401). */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly auth: AuthService) {
    super({ passReqToCallback: true });
  }

  async validate(req: Request, token: string): Promise<Principal> {
    const principal = await this.auth.resolveFor(req, token);
    if (!principal) throw AppError.unauthorized('the access token is unknown, expired or revoked');
    return principal;
  }
}

@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  override handleRequest<TUser = Principal>(err: unknown, user: TUser | false): TUser {
    // only the token's own verdict is a 401: a failure to look it up (no pool connection within
    // DATABASE_ACQUIRE_TIMEOUT_MS, a database error) goes to the error filter as what it is (503, 500), so a client is
    // never told its valid token is bad
    if (err) throw err instanceof Error ? err : AppError.unauthorized();
    if (!user) throw AppError.unauthorized('a valid access token is required');
    return user;
  }
}
