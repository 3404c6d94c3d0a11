import { AppError } from '../common/http/app-error.js';

const SEGMENT = /^[A-Za-z0-9._-]+$/;
export const MAX_KEY_LENGTH = 255;

/**
 * CONTRACT 4: a relative path of 1..255 characters, segments `[A-Za-z0-9._-]+` joined by `/`, no `.` or `..`
 * segment, no leading `/`, no backslash, no NUL. Anything else (also a missing or repeated key) is 422.
 */
export function validateAssetKey(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') throw AppError.unprocessable('key is required');
  if (typeof raw !== 'string') throw AppError.unprocessable('key must be a single string');
  const problem = keyProblem(raw);
  if (problem) throw AppError.unprocessable(`key ${problem}`);
  return raw;
}

export function keyProblem(key: string): string | null {
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) return `must be 1 to ${MAX_KEY_LENGTH} characters long`;
  if (key.includes('\0')) return 'must not contain NUL';
  if (key.includes('\\')) return 'must not contain a backslash';
  if (key.startsWith('/')) return 'must be a relative path (no leading /)';
  for (const segment of key.split('/')) {
    if (segment === '.' || segment === '..') return 'must stay inside the theme (no . or .. segment)';
    if (!SEGMENT.test(segment)) return 'must be segments of A-Z a-z 0-9 . _ - joined by /';
  }
  return null;
}

const TYPES: Record<string, string> = {
  liquid: 'text/x-liquid',
  css: 'text/css',
  scss: 'text/x-scss',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
  xml: 'application/xml',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  map: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
};

/** The content type of a text asset, derived from its key's extension (text/plain when unknown). */
export function textContentType(key: string): string {
  return TYPES[extension(key)] && isTextType(TYPES[extension(key)]) ? TYPES[extension(key)] : 'text/plain';
}

/** The content type a file of the theme library is served with, by extension. */
export function fileContentType(key: string): string {
  return TYPES[extension(key)] ?? 'application/octet-stream';
}

export function isTextType(contentType: string): boolean {
  const t = mediaType(contentType);
  return t.startsWith('text/') || t === 'application/json' || t === 'application/xml' || t === 'image/svg+xml';
}

/** Content that a browser could run as a document: served with `Content-Security-Policy: sandbox`. */
export function isActiveContent(contentType: string): boolean {
  const t = mediaType(contentType);
  return t === 'text/html' || t === 'image/svg+xml' || t === 'application/xhtml+xml' || t.endsWith('+xml') || t === 'text/xml' || t === 'application/xml';
}

const MEDIA_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\\\r\n]*"|[A-Za-z0-9!#$&^_.+-]+))*$/;

/** A request's Content-Type for a binary asset: application/octet-stream when absent, 422 when malformed. */
export function binaryContentType(header: string | undefined): string {
  if (header === undefined || header.trim() === '') return 'application/octet-stream';
  const value = header.trim();
  if (value.length > 255 || !MEDIA_TYPE.test(value)) throw AppError.unprocessable('Content-Type must be a valid media type');
  return value;
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

function extension(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
