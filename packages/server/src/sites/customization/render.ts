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
.footer-title{margin:0 0 8px;font-weight:600;color:var(--fg)}.copyright{flex-basis:100%;margin:0}`;

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
  const tint = themed(styling.tint?.color);
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
  return root + schemeStyle(settings.themes);
}

/** The site's title: the settings' when they set one, else the site's own. */
export const siteTitleOf = (settings: CustomizationSettings, siteTitle: string) =>
  settings.title ?? siteTitle;

/** An image URL fit for `src`/`href`: absolute, http(s). */
function imageUrl(url: string): string | undefined {
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

/** A logo's images: one, or one per mode (shown by `CUSTOMIZATION_STYLE` and `brandStyle`). */
function logoImages(urls: Schema<"ThemedUrl"> | undefined, alt: string): Element[] {
  const light = urls && imageUrl(urls.light);
  const dark = urls && imageUrl(urls.dark);
  if (!light || !dark) return [];
  if (light === dark) return [h("img", { src: light, alt })];
  return [
    h("img", { class: "brand-light", src: light, alt }),
    h("img", { class: "brand-dark", src: dark, alt }),
  ];
}

/** The header's logo, linking home and named by the site's title; undefined without a logo. */
export function logo(
  settings: CustomizationSettings,
  homeHref: string,
  siteTitle: string,
): Element | undefined {
  const images = logoImages(settings.header.logo, siteTitle);
  return images.length > 0 ? h("a", { class: "home brand-logo", href: homeHref }, images) : undefined;
}

/** The favicon's `<link>`s: one per mode, as the visitor's system is (a tab shows no page state). */
export function faviconLinks(settings: CustomizationSettings): Element[] {
  const icon = settings.favicon.icon;
  const light = icon && imageUrl(icon.light);
  const dark = icon && imageUrl(icon.dark);
  if (!light || !dark) return [];
  if (light === dark) return [h("link", { rel: "icon", href: light })];
  return [
    h("link", { rel: "icon", href: light, media: "(prefers-color-scheme: light)" }),
    h("link", { rel: "icon", href: dark, media: "(prefers-color-scheme: dark)" }),
  ];
}

/** The links that lead somewhere, as list items. */
function linkItems(links: readonly Schema<"CustomizationLink">[], resolve: ResolveLink): Element[] {
  return links.flatMap((link) => {
    const href = hrefOf(link.to, resolve);
    return href === undefined ? [] : [h("li", h("a", { href }, link.title))];
  });
}

/**
 * The header's links: a link (or button) each, or a menu of its sub-links (a `<details>`, no
 * script; the item's own link comes first in it). Items leading nowhere are left out; undefined when
 * none is left.
 */
export function headerLinks(settings: CustomizationSettings, resolve: ResolveLink): Element | undefined {
  const items = settings.header.links.flatMap((item) => {
    const href = item.to === null ? undefined : hrefOf(item.to, resolve);
    const style =
      item.style === "button-primary" || item.style === "button-secondary" ? item.style : undefined;
    const own = href === undefined ? [] : [h("li", h("a", { href, class: style }, item.title))];
    const subLinks = linkItems(item.links, resolve);
    if (subLinks.length === 0) return own;
    return [h("li", h("details", [h("summary", item.title), h("ul", [...own, ...subLinks])]))];
  });
  if (items.length === 0) return undefined;
  return h("nav", { class: "site-links", "aria-label": "Site links" }, h("ul", items));
}

/** The footer: its logo, its groups of links (a group without a link left out) and the copyright. */
export function footer(settings: CustomizationSettings, resolve: ResolveLink): Element | undefined {
  const { logo: footerLogo, groups, copyright } = settings.footer;
  // The footer's logo repeats the site's name, which the header gives: it is decoration.
  const images = logoImages(footerLogo, "");
  const columns = groups.flatMap((group) => {
    const links = linkItems(group.links, resolve);
    return links.length === 0
      ? []
      : [h("div", [h("p", { class: "footer-title" }, group.title), h("ul", links)])];
  });
  const parts = [
    ...(images.length > 0 ? [h("div", { class: "brand-logo" }, images)] : []),
    ...(columns.length > 0 ? [h("nav", { "aria-label": "Footer" }, columns)] : []),
    ...(copyright ? [h("p", { class: "copyright" }, copyright)] : []),
  ];
  return parts.length > 0 ? h("footer", { class: "site-footer" }, parts) : undefined;
}

const ANNOUNCEMENT_STYLES = new Set(["info", "warning", "danger", "success"]);

/** The announcement banner, while it is enabled; its link, when it leads somewhere, after the message. */
export function announcement(settings: CustomizationSettings, resolve: ResolveLink): Element | undefined {
  const banner = settings.announcement;
  if (!banner?.enabled) return undefined;
  const style = ANNOUNCEMENT_STYLES.has(banner.style) ? banner.style : "info";
  const href = banner.link && hrefOf(banner.link.to, resolve);
  const link = banner.link && href !== undefined ? [" ", h("a", { href }, banner.link.title)] : [];
  return h("div", { class: `announcement announcement-${style}` }, h("p", [banner.message, ...link]));
}
