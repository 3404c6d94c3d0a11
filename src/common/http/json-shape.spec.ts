import { unprocessable } from '../../../test/helpers/app-error.js';
import { checkJsonShape, MAX_JSON_DEPTH } from './json-shape.js';

const refusal = (value: unknown, root = ''): string => unprocessable(() => checkJsonShape(value, root));

/** `{"a": {"a": ... leaf}}` nested `depth` objects deep. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('checkJsonShape', () => {
  it('accepts ordinary JSON values', () => {
    for (const v of [null, 1, 'text', true, [], {}, { a: [1, 'x', { b: null }] }]) expect(() => checkJsonShape(v)).not.toThrow();
  });

  it('accepts MAX_JSON_DEPTH levels and refuses one more, naming the member', () => {
    expect(() => checkJsonShape(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).toBe(`${'a.'.repeat(MAX_JSON_DEPTH).slice(0, -1)}: nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('walks deep input without recursion (no stack overflow)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(refusal(deep)).toMatch(/nested deeper than 32 levels$/);
  });

  it('refuses NUL in strings and member names, naming where', () => {
    expect(refusal('a\u0000b')).toBe('the body: must not contain NUL characters');
    expect(refusal({ shipping_address: { street: 'x\u0000' } })).toBe('shipping_address.street: must not contain NUL characters');
    expect(refusal({ lines: [{ note: 'ok' }, { note: '\u0000' }] })).toBe('lines[1].note: must not contain NUL characters');
    expect(refusal({ 'a\u0000': 1 })).toBe('the body: a member name must not contain NUL characters');
    expect(refusal({ meta: { 'k\u0000': 1 } })).toBe('meta: a member name must not contain NUL characters');
  });

  it('prefixes paths with the given root', () => {
    expect(refusal({ id: '\u0000' }, 'params')).toBe('params.id: must not contain NUL characters');
  });
});
