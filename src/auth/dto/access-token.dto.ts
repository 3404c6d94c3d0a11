import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import type { AccessToken } from '../entities/access-token.entity.js';
import type { MintedToken } from '../auth.service.js';

export class CreateAccessTokenDto {
  /** A name to recognise the token by; trimmed, not blank. */
  @IsString()
  @MaxLength(200)
  label: string;

  /** `admin` or `storefront`. */
  @IsString()
  tier: string;

  /** Admin: `Shop/<resource>/<read|write>`; storefront: `storefront/<capability>`. */
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  scopes: string[];
}

export class AccessTokenDto {
  id: string;
  /** `vnstat` or `vnstss`. */
  prefix: string;
  label: string;
  /** Space-delimited. */
  scopes: string;
  created_at: string;
  /** Null until first used; updated at most once a minute. */
  last_used_at: string | null;
}

export class MintedAccessTokenDto {
  /** The value DELETE takes. */
  id: string;
  /** The secret, shown only here. */
  token: string;
  prefix: string;
  label: string;
  scopes: string;
}

export function mapAccessToken(t: AccessToken): AccessTokenDto {
  return {
    id: t.id,
    prefix: t.prefix,
    label: t.label,
    scopes: t.scopes.join(' '),
    created_at: t.createdAt.toISOString(),
    last_used_at: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
  };
}

export function mapMinted(m: MintedToken): MintedAccessTokenDto {
  return { id: m.id, token: m.token, prefix: m.prefix, label: m.label, scopes: m.scopes };
}
