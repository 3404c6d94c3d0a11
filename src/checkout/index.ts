/** The public surface of `checkout` for other modules (feature -> feature imports go through this file only). */
export { ordersListCommand } from './orders.cli.js';
export { OrderLifecycleService } from './order-lifecycle.service.js';
export { OrderRefundsService, lineRefundMinor, lineRefundParts } from './order-refunds.service.js';
export { AdminOrdersService } from './admin-orders.service.js';
export { ReplacementOrders } from './replacement-orders.service.js';
export { Order, OrderLine } from './entities/checkout.entities.js';
export type { AdminOrderDto } from './dto/admin-order.dto.js';
export { ClaimDto, ClaimLineDto, ReturnDto, ReturnLineDto } from './dto/after-sales.dto.js';
