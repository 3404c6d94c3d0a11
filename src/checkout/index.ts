/** The public surface of `checkout` for other modules (feature -> feature imports go through this file only). */
export { ordersListCommand } from './orders.cli.js';
export { CHECKOUT_SWEEPS } from './checkout.repository.js';
