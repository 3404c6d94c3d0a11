import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';

/** Where a checkout ships to, as zones see it. */
export interface AddressForZones {
  country: string | null;
  region: string | null;
  postcode: string | null;
}

/** The shop's zones (owned by the tax module) as shipping uses them: by key. */
@Injectable()
export class ShippingZones {
  /** 422 naming `member` when a key names no zone of the shop. */
  async assertKnown(_ctx: RequestContext, _keys: string[], _member: string): Promise<void> {}

  /** For an address: given zone keys, the most specific of those zones that contains it (null: none). */
  async locator(_ctx: RequestContext, _address: AddressForZones): Promise<(keys: string[]) => string | null> {
    return () => null;
  }
}
