import type { Root } from "hast";
import { toHtml } from "hast-util-to-html";
import { type Child, h } from "hastscript";

/** A mail's content; the sender adds who it goes to. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Paragraph {
  /** Absent: the paragraph is in the HTML only. */
  text?: string;
  /** How HTML shows it: its text by default. */
  html?: Child;
}

/**
 * The mail of these paragraphs, as plain text and as simple HTML: no images, styles or anything
 * loaded from elsewhere, so that opening it tells no one. `toHtml` escapes every value.
 */
function mail(subject: string, paragraphs: Paragraph[]): MailContent {
  const tree: Root = {
    type: "root",
    children: [
      { type: "doctype" },
      h("html", { lang: "en" }, [
        h("head", [h("meta", { charset: "utf-8" }), h("title", subject)]),
        h(
          "body",
          paragraphs.map((paragraph) => h("p", paragraph.html ?? paragraph.text)),
        ),
      ]),
    ],
  };
  const texts = paragraphs.flatMap((paragraph) => (paragraph.text === undefined ? [] : [paragraph.text]));
  return { subject, text: `${texts.join("\n\n")}\n`, html: toHtml(tree) };
}

/** The link as a link, then as an address to copy, for a mail reader that does not follow links. */
const linkParagraphs = (link: string, label: string): Paragraph[] => [
  { text: link, html: h("a", { href: link }, label) },
  { html: ["Or copy this address into your browser:", h("br"), link] },
];

const minutes = (count: number) => (count === 1 ? "1 minute" : `${count} minutes`);

/** A moment everyone reads the same, wherever they are: `2025-11-15 08:12 UTC`. */
const utc = (when: Date) => `${when.toISOString().slice(0, 16).replace("T", " ")} UTC`;

const NOT_ASKED = "If you did not ask for this, you can ignore this mail.";

export function invitationMail({
  organizationName,
  inviterName,
  role,
  link,
  expiresAt,
}: {
  organizationName: string;
  inviterName?: string;
  /**
   * The organization role (`Role`), null for a guest. A plain string: importing the type would tie
   * this module, and its tests, to the database's modules.
   */
  role: string | null;
  link: string;
  expiresAt?: Date;
}): MailContent {
  const who = inviterName ? `${inviterName} invited you` : "You are invited";
  const as = role === null ? "as a guest" : `as a member with the ${role} role`;
  return mail(`You are invited to join ${organizationName} on Quire`, [
    { text: "Hello," },
    { text: `${who} to join ${organizationName} on Quire, ${as}. To accept, open this link:` },
    ...linkParagraphs(link, "Accept the invitation"),
    ...(expiresAt ? [{ text: `The invitation expires on ${utc(expiresAt)}.` }] : []),
    { text: "If you did not expect it, you can ignore this mail." },
  ]);
}

export function signInLinkMail({
  link,
  expiresInMinutes,
}: {
  link: string;
  expiresInMinutes: number;
}): MailContent {
  return mail("Your sign-in link for Quire", [
    { text: "Hello," },
    { text: `Here is your link to sign in to Quire. It expires in ${minutes(expiresInMinutes)}.` },
    ...linkParagraphs(link, "Sign in to Quire"),
    { text: NOT_ASKED },
  ]);
}

export function passwordResetMail({
  link,
  expiresInMinutes,
}: {
  link: string;
  expiresInMinutes: number;
}): MailContent {
  return mail("Reset your Quire password", [
    { text: "Hello," },
    {
      text: `To choose a new password for your Quire account, open this link within ${minutes(expiresInMinutes)}:`,
    },
    ...linkParagraphs(link, "Choose a new password"),
    { text: `${NOT_ASKED} Your password stays as it is.` },
  ]);
}

export function newSignInMail({
  when,
  device,
  address,
}: {
  when: Date;
  /** What the user agent tells of the device, e.g. "Firefox on Linux". */
  device: string;
  /** The IP address the sign-in came from. */
  address?: string;
}): MailContent {
  const details = [`When: ${utc(when)}`, `Device: ${device}`, ...(address ? [`Address: ${address}`] : [])];
  return mail("New sign-in to your Quire account", [
    { text: "Hello," },
    { text: "Your Quire account was just signed in to from a new device." },
    { text: details.join("\n"), html: details.flatMap((line, i) => (i === 0 ? [line] : [h("br"), line])) },
    {
      text: "If it was you, there is nothing to do. If not, change your password now and sign out of your other sessions.",
    },
  ]);
}
