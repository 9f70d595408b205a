import type { Response } from "express";
import type { ElementContent } from "hast";
import { toHtml } from "hast-util-to-html";
import { h } from "hastscript";
import { CONTENT_SECURITY_POLICY } from "../sites/index.js";
import type { Urls } from "../urls.js";
import { PAGE_STYLE, SCRIPTS_PATH } from "./scripts.js";

/** What every page of signing in carries: no inline script, no framing, no copy kept, no link leaked on. */
const PAGE_HEADERS = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "Cache-Control": "private, no-store",
  "X-Content-Type-Options": "nosniff",
  // A one-time link's token is in the path: another site must not learn it from a link followed here.
  // (Not `no-referrer`: with it, Chromium sends `Origin: null` with the page's own forms.)
  "Referrer-Policy": "same-origin",
};

/**
 * One of the server's pages for people (signing in, joining, security): a card with the page's title,
 * in the pages' own look (`pages-style.ts`), which works on a phone and in the dark.
 */
export function sendPage(
  res: Response,
  urls: Urls,
  page: { status: number; title: string; content: Array<ElementContent | undefined> },
): void {
  const pathOf = (url: string) => new URL(url).pathname;
  const document = h(null, [
    { type: "doctype" },
    h("html", { lang: "en" }, [
      h("head", [
        h("meta", { charset: "utf-8" }),
        h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
        h("meta", { name: "robots", content: "noindex" }),
        h("title", `${page.title} · Quire`),
        h("link", { rel: "stylesheet", href: pathOf(urls.page(`${SCRIPTS_PATH}/${PAGE_STYLE.name}`)) }),
      ]),
      h("body", [
        h("a", { class: "brand", href: pathOf(urls.app("")) }, "Quire"),
        h("main", [h("h1", page.title), ...page.content.filter((node) => node !== undefined)]),
      ]),
    ]),
  ]);
  res.status(page.status).set(PAGE_HEADERS).type("html").send(toHtml(document));
}

type FieldKind = "email" | "password" | "new-password" | "text" | "name" | "code";

const INPUTS: Record<FieldKind, { type: string; autocomplete: string }> = {
  email: { type: "email", autocomplete: "username" },
  password: { type: "password", autocomplete: "current-password" },
  "new-password": { type: "password", autocomplete: "new-password" },
  text: { type: "text", autocomplete: "off" },
  name: { type: "text", autocomplete: "name" },
  // Not numeric: a recovery code, which has letters, goes in the same field.
  code: { type: "text", autocomplete: "one-time-code" },
};

/** A labelled field: the label is the field's accessible name, which tests and screen readers use. */
export function field(label: string, name: string, kind: FieldKind, value?: string): ElementContent[] {
  const id = `field-${name}`;
  return [
    h("label", { for: id }, label),
    h(
      "p",
      h("input", {
        id,
        name,
        required: true,
        ...INPUTS[kind],
        ...(kind === "new-password" && { minlength: 10 }),
        ...(value !== undefined && { value }),
      }),
    ),
  ];
}

/** A form posted to `action`, with hidden values, fields and one button. */
export function form(
  action: string,
  button: string,
  fields: ElementContent[],
  hidden: Record<string, string> = {},
): ElementContent {
  return h("form", { method: "post", action }, [
    ...Object.entries(hidden).map(([name, value]) => h("input", { type: "hidden", name, value })),
    ...fields,
    h("button", { type: "submit" }, button),
  ]);
}

/** A message the page leads with: read out at once by screen readers. */
export const alert = (message: string | undefined): ElementContent | undefined =>
  message === undefined ? undefined : h("p", { role: "alert" }, message);

export const paragraph = (...children: Array<string | ElementContent>): ElementContent => h("p", children);

export const link = (href: string, text: string): ElementContent => h("a", { href }, text);
