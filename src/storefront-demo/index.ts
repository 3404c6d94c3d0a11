/** The public surface of `storefront-demo` for other modules (feature -> feature imports go through this file only). */
export { STOREFRONT_DEMO_PATH } from './storefront-demo.js';
