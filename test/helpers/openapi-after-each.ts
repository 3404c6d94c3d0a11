import { takeViolations } from './openapi-validator.js';

// Every response a test received was checked against the OpenAPI document (test-app.ts): a mismatch fails that test.
afterEach(() => {
  const violations = takeViolations();
  if (violations.length === 0) return;
  const seen = new Set<string>();
  const lines = violations.map((v) => `${v.method} ${v.path} → ${v.status}: ${v.problem}`).filter((l) => (seen.has(l) ? false : (seen.add(l), true)));
  throw new Error(`responses outside the OpenAPI document:\n${lines.join('\n')}`);
});
