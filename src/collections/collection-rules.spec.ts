import { unprocessable } from '../../test/helpers/app-error.js';
import { parseCollectionRules } from './collection-rules.js';

/** The 422 message `parseCollectionRules(text)` throws. */
const refusal = (text: string): string => unprocessable(() => parseCollectionRules(text));

describe('parseCollectionRules', () => {
  it('reads "all" and "any" with one operator per condition', () => {
    expect(parseCollectionRules('{"all":[{"field":"color","eq":"red"},{"field":"price","lt":20}]}')).toEqual({
      mode: 'all',
      conditions: [
        { field: 'color', op: 'eq', value: 'red' },
        { field: 'price', op: 'lt', value: 20 },
      ],
    });
    expect(parseCollectionRules('{"any":[{"field":"tag","contains":"organic"},{"field":"year","neq":true}]}')).toEqual({
      mode: 'any',
      conditions: [
        { field: 'tag', op: 'contains', value: 'organic' },
        { field: 'year', op: 'neq', value: true },
      ],
    });
  });

  it('accepts an empty list and exactly 100 conditions', () => {
    expect(parseCollectionRules('{"any":[]}')).toEqual({ mode: 'any', conditions: [] });
    const hundred = JSON.stringify({ all: Array.from({ length: 100 }, (_, i) => ({ field: 'year', gt: i })) });
    expect(parseCollectionRules(hundred).conditions).toHaveLength(100);
  });

  it('refuses text that is not a JSON object', () => {
    expect(refusal('{')).toBe('rules_json must be valid JSON');
    expect(refusal('null')).toMatch(/must be a JSON object/);
    expect(refusal('[]')).toMatch(/must be a JSON object/);
    expect(refusal('"all"')).toMatch(/must be a JSON object/);
  });

  it('needs exactly one member, "all" or "any", holding an array', () => {
    expect(refusal('{}')).toBe('rules_json must have exactly one member, "all" or "any"');
    expect(refusal('{"all":[],"any":[]}')).toBe('rules_json must have exactly one member, "all" or "any"');
    expect(refusal('{"some":[]}')).toBe('rules_json must have exactly one member, "all" or "any"');
    expect(refusal('{"all":{}}')).toBe('rules_json.all must be an array');
  });

  it('refuses more than 100 conditions', () => {
    const many = JSON.stringify({ any: Array.from({ length: 101 }, () => ({ field: 'year', eq: 2020 })) });
    expect(refusal(many)).toBe('rules_json.any has more than 100 conditions');
  });

  it('names the condition that is wrong', () => {
    expect(refusal('{"all":[{"field":"color","eq":"red"},"x"]}')).toBe('rules_json.all[1] must be an object');
    expect(refusal('{"all":[[]]}')).toBe('rules_json.all[0] must be an object');
    expect(refusal('{"all":[{"field":"colour","eq":"red"}]}')).toMatch(/^rules_json\.all\[0\]\.field must be one of category, manufacturer, /);
    expect(refusal('{"all":[{"eq":"red"}]}')).toMatch(/^rules_json\.all\[0\]\.field must be one of/);
    expect(refusal('{"any":[{"field":"color"}]}')).toBe('rules_json.any[0] must have exactly one operator of eq, neq, lt, gt, contains');
    expect(refusal('{"any":[{"field":"color","eq":"a","neq":"b"}]}')).toMatch(/must have exactly one operator/);
    expect(refusal('{"any":[{"field":"color","like":"a"}]}')).toMatch(/must have exactly one operator/);
  });

  it('takes only string, number or boolean values', () => {
    expect(refusal('{"all":[{"field":"year","eq":null}]}')).toBe('rules_json.all[0].eq must be a string, number or boolean');
    expect(refusal('{"all":[{"field":"year","gt":[2020]}]}')).toBe('rules_json.all[0].gt must be a string, number or boolean');
    expect(refusal('{"all":[{"field":"year","gt":{"v":1}}]}')).toBe('rules_json.all[0].gt must be a string, number or boolean');
  });
});
