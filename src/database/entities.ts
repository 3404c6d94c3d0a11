import { AccessToken } from '../auth/entities/access-token.entity.js';
import { StaffUser } from '../auth/entities/staff-user.entity.js';
import { Country } from '../tenancy/entities/country.entity.js';
import { Currency } from '../tenancy/entities/currency.entity.js';
import { Tenant } from '../tenancy/entities/tenant.entity.js';

/** Every entity of the service. A feature module adds its own here. */
export const entities = [Tenant, Currency, Country, StaffUser, AccessToken];
