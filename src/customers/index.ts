/** The public surface of `customers` for other modules (feature -> feature imports go through this file only). */
export { CustomerAccountService } from './customer-account.service.js';
export { MailTransport } from './mail/mail-transport.js';
export { MailTransportOverrideModule } from './mail/mail.module.js';
export {
  customerEmail,
  customerEmails,
  customerIdsByEmail,
  customerType,
  defaultAddressName,
  isCustomerOf,
  MAX_SAVED_ADDRESSES,
  saveAddressUnlessKnown,
} from './customers.repository.js';
export type { AddressToSave, CustomerNameRow } from './customers.repository.js';
export type { CustomerDto } from './dto/customer.dto.js';
export type { CustomerPayload } from './customers.events.js';
