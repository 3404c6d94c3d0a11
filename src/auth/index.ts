/** The public surface of `auth` for other modules (feature -> feature imports go through this file only). */
export { AuthService } from './auth.service.js';
export type { Principal } from './auth.service.js';
export { ProvisioningService } from './provisioning.service.js';
export { activeLanguage, applyCurrency, applyVisitor, offeredCurrency } from './api.guard.js';
