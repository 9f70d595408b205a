import type { AddressInfo } from "node:net";
import { type AddressObject, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A mail as the test SMTP server received it. */
export interface ReceivedMail {
  /** The From header, e.g. `Quire <quire@localhost>`. */
  from: string;
  /** The addresses of the To header. */
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  /** Every mail received, in order. */
  received: ReceivedMail[];
  /** The first mail received and not yet taken by `next`, waiting for it when there is none. */
  next(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const addresses = (header: AddressObject | AddressObject[] | undefined): string[] =>
  [header ?? []].flat().flatMap((object) => object.value.flatMap((address) => address.address ?? []));

/**
 * An SMTP server on loopback, without TLS, that keeps what it receives. With `auth`, it accepts only
 * these credentials (over the plain connection, which is loopback).
 */
export async function startSmtpServer({
  auth,
}: {
  auth?: { user: string; pass: string };
} = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let taken = 0;
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  const server = new SMTPServer({
    authOptional: !auth,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // A pooled client may still be connected when a test ends: the server does not wait for it.
    closeTimeout: 100,
    onAuth({ username, password }, _session, callback) {
      if (auth && username === auth.user && password === auth.pass) callback(null, { user: username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((parsed) => {
        const mail: ReceivedMail = {
          from: parsed.from?.text ?? "",
          to: addresses(parsed.to),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html || "",
        };
        received.push(mail);
        const waiter = waiting.shift();
        if (waiter) {
          taken++;
          waiter(mail);
        }
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next(timeoutMs = 5000) {
      const mail = received[taken];
      if (mail) {
        taken++;
        return Promise.resolve(mail);
      }
      return new Promise((resolve, reject) => {
        const waiter = (mail: ReceivedMail) => {
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`no mail received within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
