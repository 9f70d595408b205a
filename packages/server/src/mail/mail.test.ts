import { createServer } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { configFromEnv } from "../config.js";
import { startSmtpServer, type TestSmtpServer } from "../testing/smtp.js";
import {
  createMailer,
  invitationMail,
  type MailContent,
  type Mailer,
  mailDestination,
  newSignInMail,
  passwordResetMail,
  signInLinkMail,
} from "./index.js";

const FROM = "Quire <quire@docs.example.com>";
const silent = pino({ level: "silent" });

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function smtpServer(options?: Parameters<typeof startSmtpServer>[0]): Promise<TestSmtpServer> {
  const server = await startSmtpServer(options);
  cleanups.push(() => server.close());
  return server;
}

function mailerTo(smtpUrl: string | undefined, logger = silent): Mailer {
  const mailer = createMailer({ ...(smtpUrl && { smtpUrl }), from: FROM }, logger);
  cleanups.push(() => mailer.close());
  return mailer;
}

/** A port nothing listens on: one the system gave, then closed. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const LINK = "https://docs.example.com/invites/abc?token=x&y=1";

const messages: Array<[string, MailContent, string]> = [
  [
    "an invitation",
    invitationMail({
      organizationName: "Acme <script>alert(1)</script> & Co",
      inviterName: "Ada",
      role: "edit",
      link: LINK,
      expiresAt: new Date("2030-01-02T03:04:05Z"),
    }),
    "You are invited to join Acme <script>alert(1)</script> & Co on Quire",
  ],
  ["a sign-in link", signInLinkMail({ link: LINK, expiresInMinutes: 15 }), "Your sign-in link for Quire"],
  ["a password reset", passwordResetMail({ link: LINK, expiresInMinutes: 60 }), "Reset your Quire password"],
  [
    "a new sign-in",
    newSignInMail({
      when: new Date("2030-01-02T03:04:05Z"),
      device: "Firefox on Linux",
      address: "203.0.113.7",
    }),
    "New sign-in to your Quire account",
  ],
];

describe("the mailer, over SMTP", () => {
  it.each(messages)("delivers %s to the recipient, from QUIRE_MAIL_FROM", async (_name, content, subject) => {
    const smtp = await smtpServer();
    await mailerTo(smtp.url).send({ to: "grace@example.com", ...content });
    const received = await smtp.next();
    expect(received).toMatchObject({
      from: '"Quire" <quire@docs.example.com>',
      to: ["grace@example.com"],
      subject,
    });
    expect(received.text.trim()).toBe(content.text.trim());
    expect(received.html).toBe(content.html);
  });

  it("sends with the credentials of the URL when the server asks for them", async () => {
    const smtp = await smtpServer({ auth: { user: "quire", pass: "s3cret" } });
    const { port } = new URL(smtp.url);
    await mailerTo(`smtp://quire:s3cret@127.0.0.1:${port}`).send({
      to: "grace@example.com",
      ...signInLinkMail({ link: LINK, expiresInMinutes: 15 }),
    });
    expect((await smtp.next()).subject).toBe("Your sign-in link for Quire");

    const refused = mailerTo(`smtp://quire:wrong@127.0.0.1:${port}`);
    await expect(
      refused.send({ to: "grace@example.com", subject: "s", text: "t", html: "h" }),
    ).rejects.toThrow();
    expect(smtp.received).toHaveLength(1);
  });

  it("rejects a mail when the SMTP server cannot be reached", async () => {
    const mailer = mailerTo(`smtp://127.0.0.1:${await unusedPort()}`);
    await expect(
      mailer.send({ to: "grace@example.com", subject: "s", text: "t", html: "h" }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("the mailer without SMTP", () => {
  it("writes the mail, its link included, to the log", async () => {
    const lines: string[] = [];
    const logger = pino(
      new Writable({
        write(chunk, _encoding, callback) {
          lines.push(String(chunk));
          callback();
        },
      }),
    );
    await mailerTo(undefined, logger).send({
      to: "grace@example.com",
      ...passwordResetMail({ link: LINK, expiresInMinutes: 60 }),
    });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string);
    expect(line).toMatchObject({
      level: 30,
      mail: { to: "grace@example.com", subject: "Reset your Quire password" },
    });
    expect(line.msg).toContain(LINK);
  });
});

describe("the messages", () => {
  it("escape what they are given in HTML, and show the link as a link and as text", () => {
    const { html, text } = invitationMail({
      organizationName: 'Acme <script>alert(1)</script> & "Co"',
      role: null,
      link: LINK,
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain('Acme &#x3C;script>alert(1)&#x3C;/script> &#x26; "Co"');
    expect(html).toContain('<a href="https://docs.example.com/invites/abc?token=x&#x26;y=1">');
    expect(html).toContain("<br>https://docs.example.com/invites/abc?token=x&#x26;y=1");
    expect(text).toContain(`\n\n${LINK}\n\n`);
    expect(text).toContain("as a guest");
  });

  it("load nothing from elsewhere", () => {
    for (const [, { html }] of messages) expect(html).not.toMatch(/<img|<link|<script|src=|style/i);
  });

  it("tell when and from what a new sign-in came", () => {
    const { text } = newSignInMail({ when: new Date("2030-01-02T03:04:05Z"), device: "Safari on macOS" });
    expect(text).toContain("When: 2030-01-02 03:04 UTC\nDevice: Safari on macOS\n");
    expect(text).not.toContain("Address");
  });
});

describe("mail settings from the environment", () => {
  it("take the SMTP URL and the sender, with a sender at the public URL's host by default", () => {
    expect(configFromEnv({ QUIRE_PUBLIC_URL: "https://docs.example.com" }).mail).toEqual({
      from: "Quire <quire@docs.example.com>",
    });
    const env = {
      QUIRE_SMTP_URL: "smtps://u:p@mail.example.com:465",
      QUIRE_MAIL_FROM: "Docs <docs@example.com>",
    };
    expect(configFromEnv(env).mail).toEqual({
      smtpUrl: "smtps://u:p@mail.example.com:465",
      from: "Docs <docs@example.com>",
    });
    expect(configFromEnv({ QUIRE_SMTP_URL: "" }).mail.smtpUrl).toBeUndefined();
  });

  it("refuse what is not an smtp:// or smtps:// URL, without repeating it", () => {
    for (const value of ["http://u:hunter2@mail.example.com", "mail.example.com:25", "smtp://"])
      expect(() => configFromEnv({ QUIRE_SMTP_URL: value })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining("hunter2") }),
      );
    expect(() => configFromEnv({ QUIRE_SMTP_URL: "http://mail.example.com" })).toThrow(
      /QUIRE_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
  });

  it("show where mail goes without the SMTP password", () => {
    expect(mailDestination({ smtpUrl: "smtps://quire:hunter2@mail.example.com:465", from: FROM })).toBe(
      "smtps://quire:***@mail.example.com:465",
    );
    expect(mailDestination({ from: FROM })).toBe("the log");
  });
});
