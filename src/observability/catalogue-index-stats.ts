// The contract lives in src/extensions/catalogue-index-stats.ts (issue 36: extensions/ is a leaf).
export { CatalogueIndexStats, type CatalogueIndexSnapshot } from '../extensions/index.js';
