import { createTransport } from "nodemailer";
import type { Logger } from "pino";
import type { MailSettings } from "../config.js";

export type { MailSettings };

/** One mail to one person: plain text, and the same in simple HTML. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Rejects when the SMTP server cannot be reached or refuses the mail: the caller decides what follows. */
  send(mail: OutgoingMail): Promise<void>;
  /** Closes the connections kept open to the SMTP server. */
  close(): void;
}

/**
 * Sends mail through the SMTP server of `settings.smtpUrl`, from `settings.from`. Without one (in
 * development), each mail is written to the log at info level, its text with its link included, so
 * that whoever runs the server can follow it.
 */
export function createMailer(settings: MailSettings, logger: Logger): Mailer {
  if (!settings.smtpUrl) return logMailer(logger);
  const transport = createTransport(
    {
      url: settings.smtpUrl,
      // A change that mails several people (mentions, review requests) reuses one connection.
      pool: true,
      // Shorter than nodemailer's defaults (up to 10 minutes): a caller may be answering a request.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    },
    { from: settings.from },
  );
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ to, subject, text, html });
    },
    close: () => transport.close(),
  };
}

function logMailer(logger: Logger): Mailer {
  return {
    async send({ to, subject, text }) {
      // The text in the message itself: a readable log shows its lines as they are.
      logger.info({ mail: { to, subject } }, `Mail not sent (QUIRE_SMTP_URL is not set), to ${to}:\n${text}`);
    },
    close() {},
  };
}

/** Where mail goes, fit for the log: the SMTP URL with its password shown as `***`, or "the log". */
export function mailDestination(settings: MailSettings): string {
  if (!settings.smtpUrl) return "the log";
  const url = new URL(settings.smtpUrl);
  if (url.password) url.password = "***";
  return url.href;
}

/**
 * Sends a mail without waiting for it: a request answers as fast whether or not it mails anyone
 * (nothing tells an unknown email from a known one), and a mail that fails is logged, by subject only.
 */
export function sendInBackground(mailer: Mailer, logger: Logger, mail: OutgoingMail): void {
  mailer.send(mail).catch((err: unknown) => {
    logger.error({ err, mail: { subject: mail.subject } }, "A mail could not be sent");
  });
}
