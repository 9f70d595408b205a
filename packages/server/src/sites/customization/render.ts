import type { Schema } from "@quire/api-types";
import type { Element } from "hast";
import { h } from "hastscript";
import type { CustomizationSettings } from "./settings.js";

/**
 * A site's branding on its published pages, as hast elements and CSS: pure functions of the
 * settings that apply to the visitor's site space (`customizationOf` in ./store.ts).
 *
 * Nothing of the settings reaches CSS but colours that are hex on the way in (rebuilt as hex on
 * the way out) and fixed words; URLs reach attributes only with an http(s) scheme (links also
 * `mailto:`), and hast escapes every attribute and text.
 */

export type LinkTarget = Schema<"SiteLinkTarget">;

/**
 * Where a target other than a URL leads on the published site (a page's path, a file's URL, a
 * space's site space...), or undefined when it leads nowhere the visitor can go: such a link is left
 * out (an announcement keeps its text).
 */
export type ResolveLink = (target: Exclude<LinkTarget, { kind: "url" }>) => string | undefined;

type Rgb = readonly [number, number, number];
type Scheme = "light" | "dark";
type ThemedColor = Schema<"ThemedColor">;

const HEX = /^#(?:[0-9a-f]{3}){1,2}$/i;

function rgb(text: string): Rgb | undefined {
  if (!HEX.test(text)) return undefined;
  const digits =
    text.length === 4 ? [...text.slice(1)].map((d) => d + d) : [1, 3, 5].map((i) => text.slice(i, i + 2));
  const [r = 0, g = 0, b = 0] = digits.map((pair) => Number.parseInt(pair, 16));
  return [r, g, b];
}

const hex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;

/** `share` of `a` and the rest of `b`, rounded to whole channels. */
const mix = (a: Rgb, b: Rgb, share: number): Rgb => [
  Math.round(a[0] * share + b[0] * (1 - share)),
  Math.round(a[1] * share + b[1] * (1 - share)),
  Math.round(a[2] * share + b[2] * (1 - share)),
];

/** WCAG 2 relative luminance. */
function luminance(c: Rgb): number {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

const contrast = (a: Rgb, b: Rgb) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
};

/**
 * `color` darkened (on a light background) or lightened (on a dark one) just enough for text to
 * read on `background` (4.5:1): GitBook's default primary, the same in both modes, is too dark for
 * links on a dark page.
 */
function readable(color: Rgb, background: Rgb): Rgb {
  const towards: Rgb = luminance(background) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 20; step++) {
    const candidate = mix(color, towards, 1 - step / 20);
    if (contrast(candidate, background) >= 4.5) return candidate;
  }
  return towards;
}

/** The page and soft backgrounds of sites/render.ts's stylesheet, which a tint colours. */
const BASE: Record<Scheme, { bg: Rgb; soft: Rgb }> = {
  light: { bg: [255, 255, 255], soft: [246, 248, 250] },
  dark: { bg: [13, 17, 23], soft: [22, 27, 34] },
};

/** How much of the tint goes into each background, per mode: a hint of colour, text stays readable. */
const TINT: Record<Scheme, { bg: number; soft: number }> = {
  light: { bg: 0.04, soft: 0.1 },
  dark: { bg: 0.06, soft: 0.14 },
};

const lightDark = (light: Rgb, dark: Rgb) => `light-dark(${hex(light)},${hex(dark)})`;

/** Both modes of a themed colour, when both are hex. */
function themed(color: ThemedColor | undefined): Record<Scheme, Rgb> | undefined {
  const light = color && rgb(color.light);
  const dark = color && rgb(color.dark);
  return light && dark ? { light, dark } : undefined;
}

const flip = (scheme: Scheme): Scheme => (scheme === "light" ? "dark" : "light");

/** Under `selector`, the page shows `scheme`: its colours and the logo image made for it. */
const shows = (selector: string, scheme: Scheme) =>
  `${selector}{color-scheme:${scheme}}${selector} .brand-${flip(scheme)}{display:none}${selector} .brand-${scheme}{display:inline}`;

/** The theme checkbox of sites/render.ts, checked: the visitor switched to the other mode. */
const SWITCHED = ":root:has(#quire-theme:checked)";

/**
 * Which mode shows, with the theme switch: the default mode (the system's, or a fixed one), and the
 * other one while the switch is on; without a switch, the default only and no button.
 */
function schemeStyle(themes: Schema<"CustomizationThemes">): string {
  const mode = themes.default === "light" || themes.default === "dark" ? themes.default : "system";
  const toggeable = themes.toggeable !== false;
  const at = (base: Scheme) => shows(":root", base) + shows(SWITCHED, toggeable ? flip(base) : base);
  const scheme =
    mode === "system" ? `${at("light")}@media (prefers-color-scheme:dark){${at("dark")}}` : at(mode);
  return toggeable ? scheme : `${scheme}#quire-theme,#quire-theme+.button{display:none}`;
}

/**
 * The style of the elements below, the same for every site (so that it can sit in the page's
 * hashed stylesheet): each logo image in its mode as sites/render.ts switches modes (the system's,
 * turned around by the theme switch), header links, the announcement banner in its semantic colour
 * (`--info`… set by `brandStyle`, GitBook's defaults otherwise) and the footer.
 */
export const CUSTOMIZATION_STYLE = `${schemeStyle({ default: "system", toggeable: true })}
.brand-logo{display:inline-flex;align-items:center}.brand-logo img{height:32px;width:auto;max-width:240px}
.site-links ul{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center;margin:0;padding:0;list-style:none}
.site-links a{color:inherit}.site-links .button-primary,.site-links .button-secondary{border:1px solid var(--accent);border-radius:6px;padding:2px 10px;text-decoration:none}
.site-links .button-primary{background:var(--accent);color:var(--bg)}.site-links details{position:relative}.site-links summary{cursor:pointer}
.site-links details ul{position:absolute;z-index:1;display:block;min-width:160px;padding:8px 12px;background:var(--bg);border:1px solid var(--line);border-radius:6px}
.announcement{padding:8px 24px;background:var(--soft);border-bottom:3px solid var(--announcement)}.announcement p{margin:0}
.announcement-info{--announcement:var(--info,#787878)}.announcement-success{--announcement:var(--success,#00c950)}
.announcement-warning{--announcement:var(--warning,#fe9a00)}.announcement-danger{--announcement:var(--danger,#fb2c36)}
.site-footer{display:flex;flex-wrap:wrap;gap:24px 48px;padding:24px;border-top:1px solid var(--line);font-size:.875em;color:var(--muted)}
.site-footer ul{margin:0;padding:0;list-style:none}.site-footer li{margin:4px 0}.site-footer a{color:inherit}
.footer-title{margin:0 0 8px;font-weight:600;color:var(--fg)}.copyright{flex-basis:100%;margin:0}
.site-footer .social-accounts{display:flex;flex-wrap:wrap;gap:4px 16px}.privacy,.trademark{margin:0}.page-actions{margin:0 0 16px;font-size:.875em}`;

/**
 * The custom properties and modes of a site's stylesheet for its settings, to follow the page's
 * stylesheet: `--accent` from the primary colour (made readable in each mode), `--bg` and `--soft`
 * tinted, `--info`, `--success`, `--warning` and `--danger`, and the default mode. Empty while the
 * settings were never set (no `updatedAt`): the site keeps Quire's own look rather than GitBook's
 * defaults.
 */
export function brandStyle(settings: CustomizationSettings): string {
  if (settings.updatedAt === undefined) return "";
  const { styling } = settings;
  // GitBook's deprecated `match` background is the tint of the primary colour.
  const tint = themed(
    styling.tint?.color ?? (styling.background === "match" ? styling.primaryColor : undefined),
  );
  const bg = (scheme: Scheme) =>
    tint ? mix(tint[scheme], BASE[scheme].bg, TINT[scheme].bg) : BASE[scheme].bg;
  const properties: string[] = [];
  if (tint)
    properties.push(
      `--bg:${lightDark(bg("light"), bg("dark"))}`,
      `--soft:${lightDark(
        mix(tint.light, BASE.light.soft, TINT.light.soft),
        mix(tint.dark, BASE.dark.soft, TINT.dark.soft),
      )}`,
    );
  const primary = themed(styling.primaryColor);
  if (primary)
    properties.push(
      `--accent:${lightDark(readable(primary.light, bg("light")), readable(primary.dark, bg("dark")))}`,
    );
  const semantic = {
    info: styling.infoColor,
    success: styling.successColor,
    warning: styling.warningColor,
    danger: styling.dangerColor,
  };
  for (const [name, color] of Object.entries(semantic)) {
    const both = themed(color);
    if (both) properties.push(`--${name}:${lightDark(both.light, both.dark)}`);
  }
  const root = properties.length > 0 ? `:root{${properties.join(";")}}` : "";
  // Quire's one shadow is the instant search's panel.
  const depth = styling.depth === "flat" ? ".instant{box-shadow:none}" : "";
  return root + headerStyle(settings.header) + depth + schemeStyle(settings.themes);
}

/**
 * The header's colours by GitBook's presets: `bold` in the primary colour, `contrast` in the text
 * colour (the page's colours swapped), `custom` in its own (each when hex), `none` without its
 * border; `default` as the page.
 */
function headerStyle(header: Schema<"CustomizationHeader">): string {
  const declarations = (background: string, color: string) =>
    `body>header{background:${background};color:${color};border-bottom-color:transparent}`;
  switch (header.preset) {
    case "bold":
      return declarations("var(--accent)", "var(--bg)");
    case "contrast":
      return declarations("var(--fg)", "var(--bg)");
    case "none":
      return "body>header{border-bottom-color:transparent}";
    case "custom": {
      const background = themed(header.backgroundColor);
      const link = themed(header.linkColor);
      return (
        (background ? `body>header{background:${lightDark(background.light, background.dark)}}` : "") +
        (link ? `body>header a{color:${lightDark(link.light, link.dark)}}` : "")
      );
    }
    default:
      return "";
  }
}

/** The site's title: the settings' when they set one, else the site's own. */
export const siteTitleOf = (settings: CustomizationSettings, siteTitle: string) =>
  settings.title ?? siteTitle;

/** A URL fit for an image's `src` or a link out of the site: absolute, http(s). */
export function httpUrl(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { protocol } = new URL(url);
  return protocol === "https:" || protocol === "http:" ? url : undefined;
}

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/** A link's href: relative, http(s) or mailto (no `javascript:` and the like). */
export function safeHref(href: string | undefined): string | undefined {
  if (href === undefined || !URL.canParse(href, "https://relative.invalid/")) return undefined;
  return LINK_SCHEMES.has(new URL(href, "https://relative.invalid/").protocol) ? href : undefined;
}

const hrefOf = (to: LinkTarget, resolve: ResolveLink) => safeHref(to.kind === "url" ? to.url : resolve(to));

/**
 * A link's attributes: one to another site (absolute, http(s)) opens in a new tab when the settings
 * say so, with no hold on this page and no referrer.
 */
export function linkProps(settings: CustomizationSettings, href: string): Record<string, string> {
  const external =
    settings.externalLinks.target === "blank" &&
    URL.canParse(href) &&
    ["http:", "https:"].includes(new URL(href).protocol);
  return external ? { href, target: "_blank", rel: "noopener noreferrer" } : { href };
}

/** A text in the visitor's language when the settings translate it into that language. */
export const translated = (
  text: string,
  translations: Readonly<Record<string, string>> | undefined,
  language: string | undefined,
) =>
  (language !== undefined &&
    translations !== undefined &&
    Object.hasOwn(translations, language) &&
    translations[language]) ||
  text;

/** A logo's images: one, or one per mode (shown by `CUSTOMIZATION_STYLE` and `brandStyle`). */
function logoImages(urls: Schema<"ThemedUrl"> | undefined, alt: string): Element[] {
  const light = urls && httpUrl(urls.light);
  const dark = urls && httpUrl(urls.dark);
  if (!light || !dark) return [];
  if (light === dark) return [h("img", { src: light, alt })];
  return [
    h("img", { class: "brand-light", src: light, alt }),
    h("img", { class: "brand-dark", src: dark, alt }),
  ];
}

/**
 * Where the site's title or logo leads: the header's primary link (GitBook's "destination to open when
 * visitors click the site title/logo") when it leads somewhere, else `homeHref`.
 */
export function homeLink(brand: BrandContext | undefined, homeHref: string): Record<string, string> {
  const primary = brand?.settings.header.primaryLink;
  const href = brand && primary && hrefOf(primary, brand.resolve);
  return brand && href !== undefined ? linkProps(brand.settings, href) : { href: homeHref };
}

/** The header's logo, linking home (see `homeLink`) and named by the site's title; undefined without a logo. */
export function logo(brand: BrandContext, homeHref: string, siteTitle: string): Element | undefined {
  const images = logoImages(brand.settings.header.logo, siteTitle);
  return images.length > 0
    ? h("a", { class: "home brand-logo", ...homeLink(brand, homeHref) }, images)
    : undefined;
}

const CODE_POINTS = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i;
const EMOJI_CHARACTERS =
  /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|[\u200d\ufe0f\u20e3#*0-9])+$/u;
const EMOJI_BASE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;

/**
 * The characters of an emoji given as GitBook gives them (its characters, or its code points in
 * hexadecimal joined by `-`), or undefined when it is no emoji: nothing else (no markup) can pass.
 */
export function emojiText(emoji: string): string | undefined {
  const points = CODE_POINTS.test(emoji) ? emoji.split("-").map((hex) => Number.parseInt(hex, 16)) : [];
  if (points.some((point) => point > 0x10ffff)) return undefined;
  const text = points.length > 0 ? String.fromCodePoint(...points) : emoji;
  return EMOJI_CHARACTERS.test(text) && EMOJI_BASE.test(text) ? text : undefined;
}

/** The favicon's `<link>`s: one per mode, as the visitor's system is (a tab shows no page state). */
export function faviconLinks(settings: CustomizationSettings): Element[] {
  const emoji = settings.favicon.emoji === undefined ? undefined : emojiText(settings.favicon.emoji);
  if (emoji !== undefined) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${emoji}</text></svg>`;
    return [h("link", { rel: "icon", href: `data:image/svg+xml,${encodeURIComponent(svg)}` })];
  }
  const icon = settings.favicon.icon;
  const light = icon && httpUrl(icon.light);
  const dark = icon && httpUrl(icon.dark);
  if (!light || !dark) return [];
  if (light === dark) return [h("link", { rel: "icon", href: light })];
  return [
    h("link", { rel: "icon", href: light, media: "(prefers-color-scheme: light)" }),
    h("link", { rel: "icon", href: dark, media: "(prefers-color-scheme: dark)" }),
  ];
}

/** What the branding's elements are drawn for: the settings, where links lead, the visitor's language. */
export interface BrandContext {
  settings: CustomizationSettings;
  resolve: ResolveLink;
  /** The language of the visitor's site space, which translations are picked by. */
  language?: string | undefined;
}

/** The links that lead somewhere, as list items. */
function linkItems(links: readonly Schema<"CustomizationLink">[], brand: BrandContext): Element[] {
  return links.flatMap((link) => {
    const href = hrefOf(link.to, brand.resolve);
    if (href === undefined) return [];
    const title = translated(link.title, link.localizedTitle, brand.language);
    return [h("li", h("a", linkProps(brand.settings, href), title))];
  });
}

/**
 * Where each platform shows an account: its profile URL followed by the handle, or a function of the
 * handle (undefined when the handle cannot be one on that platform).
 */
const SOCIAL_PLATFORMS: Record<
  Schema<"SiteSocialAccountPlatform">,
  { name: string; url: string | ((handle: string) => string | undefined) }
> = {
  twitter: { name: "X", url: "https://x.com/" },
  instagram: { name: "Instagram", url: "https://www.instagram.com/" },
  facebook: { name: "Facebook", url: "https://www.facebook.com/" },
  linkedin: { name: "LinkedIn", url: "https://www.linkedin.com/in/" },
  github: { name: "GitHub", url: "https://github.com/" },
  discord: { name: "Discord", url: "https://discord.gg/" },
  // A Slack handle is a workspace: its own host name.
  slack: {
    name: "Slack",
    url: (handle) => (HOST_LABEL.test(handle) ? `https://${handle}.slack.com` : undefined),
  },
  youtube: { name: "YouTube", url: "https://www.youtube.com/@" },
  tiktok: { name: "TikTok", url: "https://www.tiktok.com/@" },
  reddit: { name: "Reddit", url: "https://www.reddit.com/user/" },
  bluesky: { name: "Bluesky", url: "https://bsky.app/profile/" },
  mastodon: { name: "Mastodon", url: mastodonUrl },
  threads: { name: "Threads", url: "https://www.threads.net/@" },
  medium: { name: "Medium", url: "https://medium.com/@" },
};

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** A Mastodon handle names its server (`user@server`): the profile is on that server. */
function mastodonUrl(handle: string): string | undefined {
  const [user, server, ...rest] = handle.split("@");
  if (!user || !server || rest.length > 0 || !server.split(".").every((label) => HOST_LABEL.test(label)))
    return undefined;
  return `https://${server}/@${encodeURIComponent(user)}`;
}

/** The social accounts shown `where`, as list items linking to each account. */
function socialItems(settings: CustomizationSettings, where: "header" | "footer"): Element[] {
  return settings.socialAccounts.flatMap((account) => {
    if (!account.display[where]) return [];
    const platform = SOCIAL_PLATFORMS[account.platform];
    // GitBook's handles have no `@` before them; one given anyway is no part of the handle.
    const handle = account.handle.replace(/^@/, "");
    const url =
      typeof platform.url === "string" ? platform.url + encodeURIComponent(handle) : platform.url(handle);
    const href = url && httpUrl(url);
    return href === undefined ? [] : [h("li", h("a", linkProps(settings, href), platform.name))];
  });
}

/**
 * The header's links: a link (or button) each, or a menu of its sub-links (a `<details>`, no
 * script; the item's own link comes first in it). Items leading nowhere are left out; undefined when
 * none is left.
 */
export function headerLinks(brand: BrandContext): Element | undefined {
  const { settings, resolve, language } = brand;
  const items = settings.header.links.flatMap((item) => {
    const href = item.to === null ? undefined : hrefOf(item.to, resolve);
    const style =
      item.style === "button-primary" || item.style === "button-secondary" ? item.style : undefined;
    const title = translated(item.title, item.localizedTitle, language);
    const own =
      href === undefined ? [] : [h("li", h("a", { ...linkProps(settings, href), class: style }, title))];
    const subLinks = linkItems(item.links, brand);
    if (subLinks.length === 0) return own;
    return [h("li", h("details", [h("summary", title), h("ul", [...own, ...subLinks])]))];
  });
  items.push(...socialItems(settings, "header"));
  if (items.length === 0) return undefined;
  return h("nav", { class: "site-links", "aria-label": "Site links" }, h("ul", items));
}

/**
 * The footer: its logo, its groups of links (a group without a link left out), the social accounts,
 * the privacy policy, the copyright and, once the settings are set, the trademark (GitBook's default
 * shows it, but a site never customized keeps Quire's own look, as `brandStyle`).
 */
export function footer(brand: BrandContext): Element | undefined {
  const { settings, language } = brand;
  const { logo: footerLogo, groups, copyright } = settings.footer;
  // The footer's logo repeats the site's name, which the header gives: it is decoration.
  const images = logoImages(footerLogo, "");
  const columns = groups.flatMap((group) => {
    const links = linkItems(group.links, brand);
    const title = translated(group.title, group.localizedTitle, language);
    return links.length === 0 ? [] : [h("div", [h("p", { class: "footer-title" }, title), h("ul", links)])];
  });
  const social = socialItems(settings, "footer");
  const privacy = settings.privacyPolicy.url && httpUrl(settings.privacyPolicy.url);
  const parts = [
    ...(images.length > 0 ? [h("div", { class: "brand-logo" }, images)] : []),
    ...(columns.length > 0 ? [h("nav", { "aria-label": "Footer" }, columns)] : []),
    ...(social.length > 0
      ? [h("ul", { class: "social-accounts", "aria-label": "Social accounts" }, social)]
      : []),
    ...(privacy
      ? [h("p", { class: "privacy" }, h("a", linkProps(settings, privacy), "Privacy policy"))]
      : []),
    ...(copyright ? [h("p", { class: "copyright" }, copyright)] : []),
    ...(settings.trademark.enabled && settings.updatedAt !== undefined
      ? [h("p", { class: "trademark" }, "Powered by Quire")]
      : []),
  ];
  return parts.length > 0 ? h("footer", { class: "site-footer" }, parts) : undefined;
}

const ANNOUNCEMENT_STYLES = new Set(["info", "warning", "danger", "success"]);

/** The announcement banner, while it is enabled; its link, when it leads somewhere, after the message. */
export function announcement(brand: BrandContext): Element | undefined {
  const { settings, resolve, language } = brand;
  const banner = settings.announcement;
  if (!banner?.enabled) return undefined;
  const style = ANNOUNCEMENT_STYLES.has(banner.style) ? banner.style : "info";
  const href = banner.link && hrefOf(banner.link.to, resolve);
  const link =
    banner.link && href !== undefined
      ? [
          " ",
          h(
            "a",
            linkProps(settings, href),
            translated(banner.link.title, banner.link.localizedTitle, language),
          ),
        ]
      : [];
  const message = translated(banner.message, banner.localizedMessage, language);
  return h("div", { class: `announcement announcement-${style}` }, h("p", [message, ...link]));
}
