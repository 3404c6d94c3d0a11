import { unprocessable } from '../../test/helpers/app-error.js';
import { binaryContentType, fileContentType, isActiveContent, isTextType, keyProblem, MAX_KEY_LENGTH, textContentType, validateAssetKey } from './asset-key.js';

const refusal = unprocessable;

describe('asset keys (CONTRACT 4)', () => {
  it('accepts relative paths of [A-Za-z0-9._-] segments', () => {
    for (const key of ['layout/theme.liquid', 'assets/app.min.js', 'a', '.hidden', 'x/..y/z', 'snippets/a_b-c.liquid', 'a'.repeat(MAX_KEY_LENGTH)]) {
      expect(keyProblem(key)).toBeNull();
      expect(validateAssetKey(key)).toBe(key);
    }
  });

  it('names what is wrong with a key', () => {
    expect(keyProblem('')).toBe(`must be 1 to ${MAX_KEY_LENGTH} characters long`);
    expect(keyProblem('a'.repeat(MAX_KEY_LENGTH + 1))).toBe(`must be 1 to ${MAX_KEY_LENGTH} characters long`);
    expect(keyProblem('a\0b')).toBe('must not contain NUL');
    expect(keyProblem('a\\b')).toBe('must not contain a backslash');
    expect(keyProblem('/etc/passwd')).toBe('must be a relative path (no leading /)');
    expect(keyProblem('../secret')).toBe('must stay inside the theme (no . or .. segment)');
    expect(keyProblem('a/./b')).toBe('must stay inside the theme (no . or .. segment)');
    expect(keyProblem('a//b')).toBe('must be segments of A-Z a-z 0-9 . _ - joined by /');
    expect(keyProblem('a/')).toBe('must be segments of A-Z a-z 0-9 . _ - joined by /');
    expect(keyProblem('a b')).toBe('must be segments of A-Z a-z 0-9 . _ - joined by /');
    expect(keyProblem('ä.css')).toBe('must be segments of A-Z a-z 0-9 . _ - joined by /');
  });

  it('validateAssetKey: 422 for a missing, repeated or invalid key', () => {
    expect(refusal(() => validateAssetKey(undefined))).toBe('key is required');
    expect(refusal(() => validateAssetKey(null))).toBe('key is required');
    expect(refusal(() => validateAssetKey(''))).toBe('key is required');
    expect(refusal(() => validateAssetKey(['a', 'b']))).toBe('key must be a single string');
    expect(refusal(() => validateAssetKey('../x'))).toBe('key must stay inside the theme (no . or .. segment)');
  });
});

describe('asset content types', () => {
  it('text assets: by extension, text/plain for binary or unknown extensions', () => {
    expect(textContentType('layout/theme.liquid')).toBe('text/x-liquid');
    expect(textContentType('assets/app.CSS')).toBe('text/css');
    expect(textContentType('config/settings.json')).toBe('application/json');
    expect(textContentType('assets/logo.svg')).toBe('image/svg+xml');
    expect(textContentType('assets/logo.png')).toBe('text/plain');
    expect(textContentType('README')).toBe('text/plain');
    expect(textContentType('assets/.env')).toBe('text/plain');
    expect(textContentType('a.b/noext')).toBe('text/plain');
  });

  it('library files: by extension, application/octet-stream when unknown', () => {
    expect(fileContentType('assets/logo.png')).toBe('image/png');
    expect(fileContentType('fonts/x.woff2')).toBe('font/woff2');
    expect(fileContentType('blob.bin')).toBe('application/octet-stream');
  });

  it('text and active content ignore parameters and case', () => {
    expect(isTextType('Text/CSS; charset=utf-8')).toBe(true);
    expect(isTextType('application/json')).toBe(true);
    expect(isTextType('image/png')).toBe(false);
    for (const t of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'application/atom+xml', 'text/xml', 'APPLICATION/XML; q=1'])
      expect(isActiveContent(t)).toBe(true);
    for (const t of ['text/css', 'text/javascript', 'image/png', 'application/json']) expect(isActiveContent(t)).toBe(false);
  });

  it('binaryContentType: octet-stream when absent, the trimmed header when valid, 422 otherwise', () => {
    expect(binaryContentType(undefined)).toBe('application/octet-stream');
    expect(binaryContentType('  ')).toBe('application/octet-stream');
    expect(binaryContentType(' image/png ')).toBe('image/png');
    expect(binaryContentType('text/plain; charset="utf-8"')).toBe('text/plain; charset="utf-8"');
    for (const bad of ['png', 'image/', '/png', 'image/png; charset', 'a/b\r\nX-Injected: 1', `image/${'x'.repeat(300)}`]) {
      expect(refusal(() => binaryContentType(bad))).toBe('Content-Type must be a valid media type');
    }
  });
});
