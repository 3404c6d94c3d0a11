import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileContentType, isTextType, keyProblem } from './asset-key.js';

/** The built-in themes: `src/themes/library/<key>/` (copied to `dist/src/themes/library` by `nest build`). */
export const LIBRARY_DIR = fileURLToPath(new URL('./library/', import.meta.url));

/** The library theme every new shop starts with. */
export const DEFAULT_LIBRARY_THEME = 'cellar';

export interface LibraryFile {
  key: string;
  contentType: string;
  /** Text files are text assets; the rest binary assets. */
  text: string | null;
  bytes: Buffer;
}

export interface LibraryTheme {
  key: string;
  name: string;
  files: LibraryFile[];
}

const cache = new Map<string, LibraryTheme>();

/** The keys of the built-in library themes, sorted. */
export function listLibraryThemes(): string[] {
  return readdirSync(LIBRARY_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[a-z0-9-]+$/.test(d.name))
    .map((d) => d.name)
    .sort();
}

/** A library theme with its files, or null for an unknown key. */
export function loadLibraryTheme(key: string): LibraryTheme | null {
  if (!listLibraryThemes().includes(key)) return null;
  const hit = cache.get(key);
  if (hit) return hit;
  const root = join(LIBRARY_DIR, key);
  const files = walk(root, '').map((rel): LibraryFile => {
    const bytes = readFileSync(join(root, rel));
    const contentType = fileContentType(rel);
    return { key: rel, contentType, bytes, text: isTextType(contentType) || rel.endsWith('.liquid') ? bytes.toString('utf8') : null };
  });
  const theme = { key, name: themeName(files) ?? key, files };
  cache.set(key, theme);
  return theme;
}

function walk(root: string, rel: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, rel)).sort()) {
    const child = rel ? `${rel}/${name}` : name;
    if (statSync(join(root, child)).isDirectory()) out.push(...walk(root, child));
    else if (keyProblem(child) === null) out.push(child);
  }
  return out;
}

/** `theme_info.theme_name` of config/settings_schema.json, as in Shopify themes. */
function themeName(files: LibraryFile[]): string | null {
  const schema = files.find((f) => f.key === 'config/settings_schema.json');
  if (!schema?.text) return null;
  try {
    const sections = JSON.parse(schema.text) as Array<{ name?: string; theme_name?: string }>;
    return sections.find((s) => s.name === 'theme_info')?.theme_name ?? null;
  } catch {
    return null;
  }
}
