// The contract lives in src/extensions/asset-store.ts (issue 36: extensions/ is a leaf).
export { AssetStores, type AssetStore } from '../../extensions/index.js';
