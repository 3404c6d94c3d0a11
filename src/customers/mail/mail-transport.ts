import { Logger } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { MailTransport, type MailMessage } from '../../extensions/index.js';

export { MailTransport, type MailMessage } from '../../extensions/index.js';

/**
 * Development and tests without SMTP: each message becomes one log line carrying its text (and so its code). With
 * `production` the line holds neither the text nor the data: a code or a link with one never reaches a production
 * log (and production refuses to start without SMTP_URL anyway, see loadConfig).
 */
export class LogMailTransport extends MailTransport {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly production = false,
    private readonly write: (entry: object, message: string) => void = (entry, message) => this.logger.log(entry, message),
  ) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    const mail = { to: message.to, subject: message.subject, kind: message.kind, ...(this.production ? {} : { text: message.text }) };
    this.write({ mail }, 'mail (no SMTP_URL: logged, not sent)');
  }
}

/**
 * SMTP through nodemailer. `SMTP_URL` is a nodemailer connection URL (`smtp://user:pass@host:587`,
 * `smtps://...:465`); an optional `from` query parameter sets the sender (default `no-reply@localhost`).
 */
export class SmtpMailTransport extends MailTransport {
  private readonly transporter: Transporter;
  private readonly from: string;

  constructor(smtpUrl: string) {
    super();
    const url = new URL(smtpUrl);
    this.from = url.searchParams.get('from') ?? 'no-reply@localhost';
    url.searchParams.delete('from');
    this.transporter = createTransport(url.toString());
  }

  async send(message: MailMessage): Promise<void> {
    await this.transporter.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }
}

/** Keeps messages in memory (tests, local tooling): `outbox`, `last(kind, to)`, `take(kind, to)`. */
export class MemoryMailTransport extends MailTransport {
  readonly outbox: MailMessage[] = [];

  async send(message: MailMessage): Promise<void> {
    this.outbox.push(message);
  }

  /** The newest message of a kind to an address (case-insensitive), or undefined. */
  last(kind: string, to: string): MailMessage | undefined {
    for (let i = this.outbox.length - 1; i >= 0; i--) {
      const m = this.outbox[i];
      if (m.kind === kind && m.to.toLowerCase() === to.toLowerCase()) return m;
    }
    return undefined;
  }

  /** Removes and returns the oldest message of a kind to an address, waiting for it up to `timeoutMs`. */
  async take(kind: string, to: string, timeoutMs = 2000): Promise<MailMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.outbox.findIndex((m) => m.kind === kind && m.to.toLowerCase() === to.toLowerCase());
      if (i >= 0) return this.outbox.splice(i, 1)[0];
      if (Date.now() > deadline) throw new Error(`no ${kind} mail to ${to}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
