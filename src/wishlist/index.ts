/** The public surface of `wishlist` for other modules (feature -> feature imports go through this file only). */
export { WishlistService } from './wishlist.service.js';
