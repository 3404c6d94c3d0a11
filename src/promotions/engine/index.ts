/** The promotions engine: pure functions (no Nest, no SQL). See README "Promotions" and the headers of each file. */
export * from './types.js';
export { compilePromotions, promotionClass, actionClass } from './compile.js';
export type { CompiledPromotions } from './compile.js';
export { evaluatePromotions } from './evaluate.js';
export { EXACT_GROUP, LEAF_BUDGET } from './combine.js';
export { allocateLargestRemainder, percentOfMinor } from './allocate.js';
