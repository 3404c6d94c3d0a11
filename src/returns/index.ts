/** The public surface of `returns` for other modules (feature -> feature imports go through this file only). */
export { ReturnsService } from './returns.service.js';
export { ClaimsService } from './claims.service.js';
