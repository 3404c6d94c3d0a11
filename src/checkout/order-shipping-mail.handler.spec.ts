import { describe, expect, it } from '@jest/globals';
import { Global, Module, type DynamicModule, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { RequestContext } from '../common/context/request-context.js';
import { AppConfig } from '../config/app-config.js';
import { LogMailTransport, MemoryMailTransport } from '../customers/mail/mail-transport.js';
import { MailModule } from '../customers/mail/mail.module.js';
import type { DomainEvent } from '../events/index.js';
import { Extensions, ExtensionsModule, MailTransport } from '../extensions/index.js';
import { OrderShippingMail } from './order-shipping-mail.handler.js';

/**
 * The mail transport is an extension point (`extensions.one(MailTransport)`, the last registered wins): the customers'
 * `MailModule` registers the built-in one (the log without `SMTP_URL`) the way an extension module registers its own,
 * and the order shipping notice goes through whichever the app holds.
 */

const memory = new MemoryMailTransport();

/** An extension module bringing its own transport (as a shop's plugin would). */
@Module({ providers: [{ provide: MemoryMailTransport, useValue: memory }] })
class OwnTransportModule {}

@Global()
@Module({})
class ConfigStub {
  static with(): DynamicModule {
    const config = Object.assign(new AppConfig(), { SMTP_URL: undefined, NODE_ENV: 'test' });
    return { module: ConfigStub, global: true, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}

async function app(extensionModules: Type[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigStub.with(), ExtensionsModule, MailModule, ...extensionModules],
    providers: [OrderShippingMail],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

const fulfilled = {
  payload: {
    order: { id: 'o1', number: '1001', email: 'buyer@example.com', fulfillment_status: 'fulfilled' },
    fulfillment: { id: 'f1', carrier: null, tracking_number: null, tracking_url: 'https://track.example/1' },
    notify_customer: true,
  },
} as unknown as DomainEvent<'order.fulfilled'>;

describe('MailTransport as an extension point', () => {
  it("the built-in transport is the mail module's (the log without SMTP_URL)", async () => {
    const moduleRef = await app([]);
    expect(moduleRef.get(Extensions).one(MailTransport)).toBeInstanceOf(LogMailTransport);
  });

  it("an extension module's transport replaces it: the shipping notice goes there", async () => {
    const moduleRef = await app([OwnTransportModule]);
    expect(moduleRef.get(Extensions).one(MailTransport)).toBe(memory);
    await moduleRef.get(OrderShippingMail).notify(fulfilled, RequestContext.forTenant('t'));
    expect(memory.outbox.map((m) => [m.to, m.kind, m.subject])).toEqual([['buyer@example.com', 'order_fulfilled', 'Your order 1001 has shipped']]);
  });
});
