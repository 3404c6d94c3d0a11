/**
 * **Mail transport** contract (an extension point, see extension-points.ts), declared here so src/extensions/
 * imports no feature module. The implementations (SMTP, log, memory) are the customers module's (customers/mail/).
 */

/** One plain-text message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** What the message is for (`confirm_email`, `reset_password`, ...), for the log and for tests. */
  kind: string;
  /** Machine-readable values the message carries (the code the shopper sends back), for tests and the log transport. */
  data?: Record<string, string>;
}

/** Where mail goes. The provider is chosen at boot: SMTP when `SMTP_URL` is set, else the log. */
export abstract class MailTransport {
  abstract send(message: MailMessage): Promise<void>;
}
