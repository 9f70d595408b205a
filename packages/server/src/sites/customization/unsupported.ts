import type { Schema } from "@quire/api-types";
import { badRequest } from "../../http/errors.js";
import { contractEnum } from "../../spec.js";
import { emojiText } from "./render.js";

/**
 * What of GitBook's customization Quire cannot honour, refused with a 400 rather than stored and
 * ignored: AI (Quire has none), page actions the site does not offer, a tracking cookie (Quire sets
 * no visitor cookie), code themes other than the one the site's highlighter applies, custom fonts
 * (their URLs would reach the stylesheet), conditions on header links (the site's branding is the
 * same for every visitor), and translations into a language GitBook does not have.
 */

type Localized = Record<string, string> | null | undefined;
type ThemedCodeTheme = Schema<"CustomizationThemedCodeTheme">;
type Link = { localizedTitle?: Localized };

/** The parts of a replacement or of an override that are checked; both have this shape. */
interface Checked {
  localizedTitle?: Localized;
  styling?: {
    font?: unknown;
    headingFont?: unknown;
    monospaceFont?: unknown;
    codeTheme?: { default?: ThemedCodeTheme | null; openapi?: ThemedCodeTheme | null };
  };
  favicon?: Schema<"CustomizationFavicon"> | null;
  header?: { links?: Array<Link & { condition?: string; links: Link[] }> | null };
  footer?: { groups?: Array<Link & { links: Link[] }> | null };
  announcement?: { localizedMessage?: Localized; link?: Link } | null;
  ai?: { mode?: string; localizedGreeting?: Localized };
  pageActions?: { items: string[] };
  insights?: { trackingCookie: boolean };
}

/** The languages of translations (GitBook's `LocalizedString` keys): the contract's own list. */
const LANGUAGES = contractEnum("TranslationLanguage");

/**
 * GitBook's names of the code theme the site's highlighter applies (GitHub's light and dark themes,
 * content/engine/highlight-style.ts): the site's own (`default-*`) or GitHub's.
 */
const CODE_THEMES = {
  light: new Set(["default-light", "github-light-default"]),
  dark: new Set(["default-dark", "github-dark-default"]),
};

/** The page actions the site offers: a page's Markdown, at `<page>.md`. */
const PAGE_ACTIONS = new Set(["markdown"]);

function localizedProblems(text: Localized, field: string): string[] {
  const unknown = Object.keys(text ?? {}).filter((language) => !LANGUAGES.has(language));
  return unknown.length === 0 ? [] : [`${field}: ${unknown.join(", ")} is no language of translations.`];
}

const linksProblems = (links: readonly Link[], field: string) =>
  links.flatMap((link, i) => localizedProblems(link.localizedTitle, `${field}[${i}].localizedTitle`));

function fontProblems(styling: NonNullable<Checked["styling"]>): string[] {
  const fonts = {
    font: styling.font,
    headingFont: styling.headingFont,
    monospaceFont: styling.monospaceFont,
  };
  return Object.entries(fonts)
    .filter(([, font]) => typeof font === "object" && font !== null)
    .map(([name]) => `styling.${name}: Quire serves only the fonts it offers; give one's name.`);
}

function codeThemeProblems(codeTheme: NonNullable<Checked["styling"]>["codeTheme"]): string[] {
  return (["default", "openapi"] as const).flatMap((block) =>
    (["light", "dark"] as const).flatMap((mode) => {
      const theme = codeTheme?.[block]?.[mode];
      return theme === undefined || CODE_THEMES[mode].has(theme)
        ? []
        : [
            `styling.codeTheme.${block}.${mode}: the site highlights code in one theme, ${[...CODE_THEMES[mode]].join(" or ")}.`,
          ];
    }),
  );
}

function problems(body: Checked): string[] {
  const { styling, favicon, header, footer, announcement, ai, pageActions, insights } = body;
  const headerLinks = header?.links ?? [];
  const groups = footer?.groups ?? [];
  return [
    ...localizedProblems(body.localizedTitle, "localizedTitle"),
    ...(styling ? [...fontProblems(styling), ...codeThemeProblems(styling.codeTheme)] : []),
    ...(favicon?.icon && favicon.emoji !== undefined ? ["favicon: give an icon or an emoji, not both."] : []),
    ...(favicon?.emoji !== undefined && emojiText(favicon.emoji) === undefined
      ? ["favicon.emoji: not an emoji (its characters, or its code points in hexadecimal)."]
      : []),
    ...headerLinks.flatMap((link, i) => [
      ...(link.condition
        ? [`header.links[${i}].condition: Quire shows the same header to every visitor; leave it out.`]
        : []),
      ...localizedProblems(link.localizedTitle, `header.links[${i}].localizedTitle`),
      ...linksProblems(link.links, `header.links[${i}].links`),
    ]),
    ...groups.flatMap((group, i) => [
      ...localizedProblems(group.localizedTitle, `footer.groups[${i}].localizedTitle`),
      ...linksProblems(group.links, `footer.groups[${i}].links`),
    ]),
    ...localizedProblems(announcement?.localizedMessage, "announcement.localizedMessage"),
    ...linksProblems(announcement?.link ? [announcement.link] : [], "announcement.link"),
    ...(ai?.mode !== undefined && ai.mode !== "none" ? ["ai.mode: Quire has no AI; the mode is none."] : []),
    ...localizedProblems(ai?.localizedGreeting, "ai.localizedGreeting"),
    ...(pageActions?.items ?? [])
      .filter((item) => !PAGE_ACTIONS.has(item))
      .map((item) => `pageActions.items: the site offers no ${item} action, only markdown.`),
    ...(insights?.trackingCookie ? ["insights.trackingCookie: Quire sets no visitor cookie."] : []),
  ];
}

/** A replacement or an override that asks for what Quire cannot honour: 400, naming each field. */
export function assertSupported(body: Checked): void {
  const found = problems(body);
  if (found.length > 0) throw badRequest(found.join(" "));
}
