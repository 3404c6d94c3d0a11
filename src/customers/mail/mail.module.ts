import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { LogMailTransport, MailTransport, SmtpMailTransport } from './mail-transport.js';

/** Injection token of a transport that replaces the configured one (tests; see `MailTransportOverrideModule`). */
export const MAIL_TRANSPORT_OVERRIDE = Symbol('MAIL_TRANSPORT_OVERRIDE');

/**
 * The built-in mail transport, registered as an extension module would register its own (the `MailTransport`
 * extension point: `extensions.one(MailTransport)`, the last registered wins): an override when one is provided,
 * else SMTP by `SMTP_URL`, else the log.
 */
@Module({
  providers: [
    {
      provide: MailTransport,
      inject: [AppConfig, { token: MAIL_TRANSPORT_OVERRIDE, optional: true }],
      useFactory: (config: AppConfig, override?: MailTransport) =>
        override ?? (config.SMTP_URL ? new SmtpMailTransport(config.SMTP_URL) : new LogMailTransport(config.NODE_ENV === 'production')),
    },
  ],
})
export class MailModule {}

/**
 * Replaces the mail transport of the whole app, passed in `createShopApp({imports: [...]})`:
 * `MailTransportOverrideModule.use(new MemoryMailTransport())`.
 */
@Global()
@Module({})
export class MailTransportOverrideModule {
  static use(transport: MailTransport): DynamicModule {
    return {
      module: MailTransportOverrideModule,
      global: true,
      providers: [{ provide: MAIL_TRANSPORT_OVERRIDE, useValue: transport }],
      exports: [MAIL_TRANSPORT_OVERRIDE],
    };
  }
}
