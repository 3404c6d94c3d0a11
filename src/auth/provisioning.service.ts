import { Injectable } from '@nestjs/common';
import { RequestContext } from '../common/context/request-context.js';
import { STOREFRONT_SCOPES } from '../common/auth/scopes.js';
import { TenancyService } from '../tenancy/index.js';
import { AuthService } from './auth.service.js';

export interface ProvisionedShop {
  tenant: { id: string; handle: string };
  owner: { id: string; email: string };
  admin_token: string;
  storefront_token: string;
}

/** `tenant create`: a shop, its owner holding every permission, and one admin and one storefront token. */
@Injectable()
export class ProvisioningService {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly auth: AuthService,
  ) {}

  async createShop(input: { name: string; handle?: string; domain?: string; currency?: string; ownerEmail?: string }): Promise<ProvisionedShop> {
    const tenant = await this.tenancy.createTenant(input);
    const ctx = RequestContext.forTenant(tenant.id);
    const allAdmin = this.auth.allAdminScopes();
    const owner = await this.auth.createStaff(ctx, { email: input.ownerEmail ?? `owner@${tenant.handle}.shop.local`, permissions: allAdmin, isOwner: true });
    const admin = await this.auth.mint(ctx, owner.id, { label: 'Owner admin token', tier: 'admin', scopes: allAdmin });
    const storefront = await this.auth.mint(ctx, owner.id, { label: 'Storefront token', tier: 'storefront', scopes: [...STOREFRONT_SCOPES] });
    return {
      tenant: { id: tenant.id, handle: tenant.handle },
      owner: { id: owner.id, email: owner.email },
      admin_token: admin.token,
      storefront_token: storefront.token,
    };
  }
}
