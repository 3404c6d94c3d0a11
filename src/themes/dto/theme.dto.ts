import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Theme } from '../entities/theme.entity.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class UpdateThemeDto {
  /** Display name; trimmed, not blank. */
  @IsOptional()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  /** `main` (publishes this theme, demoting the current main) or `unpublished` (a no-op on the main theme). */
  @IsOptional()
  @IsString()
  role?: string;
}

export class ThemeDto {
  id: string;
  name: string | null;
  /** `main` (the single active theme) or `unpublished`. */
  role: string | null;
  /** The library theme it was created from; null for custom themes. */
  theme_key: string | null;
  created_at: string;
  updated_at: string | null;
}

export function mapTheme(t: Theme): ThemeDto {
  return {
    id: t.id,
    name: t.name,
    role: t.role,
    theme_key: t.themeKey,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt ? t.updatedAt.toISOString() : null,
  };
}
