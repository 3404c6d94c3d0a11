import { AppError } from '../common/http/app-error.js';

/** Fields and operators of a smart collection's rules (CONTRACT 6). */
export const RULE_FIELDS = ['category', 'manufacturer', 'color', 'region', 'year', 'size', 'country', 'custom_field', 'price', 'title', 'tag'] as const;
export const RULE_OPS = ['eq', 'neq', 'lt', 'gt', 'contains'] as const;

export type RuleField = (typeof RULE_FIELDS)[number];
export type RuleOp = (typeof RULE_OPS)[number];
export interface RuleCondition {
  field: RuleField;
  op: RuleOp;
  value: string | number | boolean;
}
export interface CollectionRules {
  mode: 'all' | 'any';
  conditions: RuleCondition[];
}

/** Parses `{"all":[...]}` / `{"any":[...]}` of `{"field": f, <op>: value}`; anything else is 422 naming rules_json. */
export function parseCollectionRules(text: string): CollectionRules {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw AppError.unprocessable('rules_json must be valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw AppError.unprocessable('rules_json must be a JSON object {"all": [...]} or {"any": [...]}');
  const keys = Object.keys(parsed);
  if (keys.length !== 1 || (keys[0] !== 'all' && keys[0] !== 'any')) throw AppError.unprocessable('rules_json must have exactly one member, "all" or "any"');
  const mode = keys[0] as 'all' | 'any';
  const list = (parsed as Record<string, unknown>)[mode];
  if (!Array.isArray(list)) throw AppError.unprocessable(`rules_json.${mode} must be an array`);
  if (list.length > 100) throw AppError.unprocessable(`rules_json.${mode} has more than 100 conditions`);
  const conditions = list.map((raw, i): RuleCondition => {
    const at = `rules_json.${mode}[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw AppError.unprocessable(`${at} must be an object`);
    const cond = raw as Record<string, unknown>;
    if (!(RULE_FIELDS as readonly unknown[]).includes(cond.field)) throw AppError.unprocessable(`${at}.field must be one of ${RULE_FIELDS.join(', ')}`);
    const ops = Object.keys(cond).filter((k) => k !== 'field');
    if (ops.length !== 1 || !(RULE_OPS as readonly string[]).includes(ops[0]))
      throw AppError.unprocessable(`${at} must have exactly one operator of ${RULE_OPS.join(', ')}`);
    const value = cond[ops[0]];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      throw AppError.unprocessable(`${at}.${ops[0]} must be a string, number or boolean`);
    return { field: cond.field as RuleField, op: ops[0] as RuleOp, value };
  });
  return { mode, conditions };
}
