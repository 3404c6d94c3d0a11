/** The public surface of `cart` for other modules (feature -> feature imports go through this file only). */
export { CartService } from './cart.service.js';
export { ownerClause, ownerOf } from './cart-owner.js';
export { emptyCartCtes } from './cart.repository.js';
