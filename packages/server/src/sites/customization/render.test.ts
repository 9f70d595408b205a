import type { Element } from "hast";
import { toHtml } from "hast-util-to-html";
import { describe, expect, it } from "vitest";
import {
  announcement,
  brandStyle,
  CUSTOMIZATION_STYLE,
  emojiText,
  faviconLinks,
  footer,
  headerLinks,
  type LinkTarget,
  linkProps,
  logo,
  type ResolveLink,
  siteTitleOf,
  translated,
} from "./render.js";
import { type CustomizationSettings, DEFAULT_CUSTOMIZATION } from "./settings.js";

/** Settings as stored once set, with `changes` over GitBook's defaults. */
const settings = (changes: Partial<CustomizationSettings> = {}): CustomizationSettings => ({
  ...DEFAULT_CUSTOMIZATION,
  updatedAt: "2026-11-25T19:00:00.000Z",
  ...changes,
});

const styling = (changes: Partial<CustomizationSettings["styling"]>) =>
  settings({ styling: { ...DEFAULT_CUSTOMIZATION.styling, ...changes } });

/** Pages by id at `/p/<id>`; every other target leads nowhere. */
const resolve: ResolveLink = (target) => (target.kind === "page" ? `/p/${target.page}` : undefined);

const html = (element: Element | Element[] | undefined) =>
  element === undefined
    ? undefined
    : toHtml(Array.isArray(element) ? { type: "root", children: element } : element);

const url = (to: string): LinkTarget => ({ kind: "url", url: to });

/** The branding of `changes` over GitBook's defaults, as drawn for a visitor in `language`. */
const brand = (changes: Partial<CustomizationSettings> = {}, language?: string) => ({
  settings: settings(changes),
  resolve,
  language,
});

/** A header with `changes` over GitBook's default one. */
const header = (changes: Partial<CustomizationSettings["header"]>) => ({
  header: { ...DEFAULT_CUSTOMIZATION.header, ...changes },
});

/** The value of a custom property of `css`'s `:root` block. */
const property = (css: string, name: string) => new RegExp(`${name}:([^;}]+)`).exec(css)?.[1];

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((s) =>
    s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return ((x ?? 0) + 0.05) / ((y ?? 0) + 0.05);
};

describe("settings never set", () => {
  it("give nothing: no style, logo, favicon, links, footer or announcement", () => {
    expect(brandStyle(DEFAULT_CUSTOMIZATION)).toBe("");
    const brand = { settings: DEFAULT_CUSTOMIZATION, resolve };
    expect(logo(brand, "/", "Docs")).toBeUndefined();
    expect(faviconLinks(DEFAULT_CUSTOMIZATION)).toEqual([]);
    expect(headerLinks(brand)).toBeUndefined();
    expect(footer(brand)).toBeUndefined();
    expect(announcement(brand)).toBeUndefined();
    expect(siteTitleOf(DEFAULT_CUSTOMIZATION, "Docs")).toBe("Docs");
    expect(siteTitleOf(settings({ title: "Handbook" }), "Docs")).toBe("Handbook");
  });
});

describe("brandStyle", () => {
  it("sets the accent per mode, readable on each background, and the semantic colours", () => {
    const css = brandStyle(styling({ primaryColor: { light: "#FFFF00", dark: "#000080" } }));
    const accent = /--accent:light-dark\((#[0-9a-f]{6}),(#[0-9a-f]{6})\)/.exec(css);
    const [light = "", dark = ""] = accent?.slice(1) ?? [];
    expect(contrast(light, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrast(dark, "#0d1117")).toBeGreaterThanOrEqual(4.5);
    // A colour that reads already is kept as it is.
    expect(brandStyle(styling({ primaryColor: { light: "#1f5fc8", dark: "#79b0ff" } }))).toContain(
      "--accent:light-dark(#1f5fc8,#79b0ff)",
    );
    expect(property(css, "--danger")).toBe("light-dark(#fb2c36,#fb2c36)");
    expect(property(css, "--info")).toBe("light-dark(#787878,#787878)");
  });

  it("tints the backgrounds slightly, each mode its own colour", () => {
    expect(property(brandStyle(settings()), "--bg")).toBeUndefined();
    const css = brandStyle(styling({ tint: { color: { light: "#f00", dark: "#00f" } } }));
    expect(property(css, "--bg")).toBe("light-dark(#fff5f5,#0c1025)");
    expect(property(css, "--soft")).toMatch(/^light-dark\(#f[0-9a-f]{5},#[0-9a-f]{6}\)$/);
  });

  it("shows the default mode, the other one while the switch is on, and no switch when not toggeable", () => {
    const dark = brandStyle(settings({ themes: { default: "dark", toggeable: true } }));
    expect(dark).toContain(":root{color-scheme:dark}");
    expect(dark).toContain(":root:has(#quire-theme:checked){color-scheme:light}");
    expect(dark).not.toContain("@media");
    const fixed = brandStyle(settings({ themes: { default: "light", toggeable: false } }));
    expect(fixed).toContain(":root:has(#quire-theme:checked){color-scheme:light}");
    expect(fixed).toContain("#quire-theme,#quire-theme+.button{display:none}");
    const system = brandStyle(settings({ themes: { default: "system", toggeable: true } }));
    expect(system).toContain("@media (prefers-color-scheme:dark){:root{color-scheme:dark}");
    expect(CUSTOMIZATION_STYLE).toContain(system.slice(system.indexOf(":root{color-scheme")));
  });

  it("lets no value out of its declaration", () => {
    const evil = "#fff;}</style><script>alert(1)</script><style>";
    const css = brandStyle(
      settings({
        styling: {
          ...DEFAULT_CUSTOMIZATION.styling,
          primaryColor: { light: evil, dark: "#000" },
          infoColor: { light: "#000", dark: "red" },
          tint: { color: { light: "#fff", dark: "#000\\;" } },
        },
        themes: { default: "dark;}body{display:none" as "dark", toggeable: true },
      }),
    );
    expect(css).not.toMatch(/<|script|red|\\|body/);
    expect(property(css, "--accent")).toBeUndefined();
    expect(property(css, "--info")).toBeUndefined();
    expect(property(css, "--bg")).toBeUndefined();
    // An unknown mode is the system's.
    expect(css).toContain("@media (prefers-color-scheme:dark)");
  });
});

describe("logo and favicon", () => {
  const logoUrls = { light: "https://cdn.test/light.png", dark: "https://cdn.test/dark.png" };

  it("links home with an image per mode, named by the escaped site title", () => {
    const out = html(logo(brand(header({ logo: logoUrls })), "/s/x/", 'A "B" <C>'));
    expect(out).toBe(
      '<a class="home brand-logo" href="/s/x/"><img class="brand-light" src="https://cdn.test/light.png" alt="A &#x22;B&#x22; <C>">' +
        '<img class="brand-dark" src="https://cdn.test/dark.png" alt="A &#x22;B&#x22; <C>"></a>',
    );
    const one = { light: logoUrls.light, dark: logoUrls.light };
    expect(html(logo(brand(header({ logo: one })), "/", "Docs"))).toBe(
      '<a class="home brand-logo" href="/"><img src="https://cdn.test/light.png" alt="Docs"></a>',
    );
  });

  it("shows no image from a URL that is not http(s)", () => {
    const script = { light: "javascript:alert(1)", dark: "https://cdn.test/dark.png" };
    expect(logo(brand(header({ logo: script })), "/", "Docs")).toBeUndefined();
    expect(
      faviconLinks(settings({ favicon: { icon: { light: "data:image/png,x", dark: "data:x" } } })),
    ).toEqual([]);
  });

  it("gives a favicon per mode of the visitor's system, or one for both", () => {
    expect(html(faviconLinks(settings({ favicon: { icon: logoUrls } })))).toBe(
      '<link rel="icon" href="https://cdn.test/light.png" media="(prefers-color-scheme: light)">' +
        '<link rel="icon" href="https://cdn.test/dark.png" media="(prefers-color-scheme: dark)">',
    );
    const one = { light: logoUrls.dark, dark: logoUrls.dark };
    expect(html(faviconLinks(settings({ favicon: { icon: one } })))).toBe(
      '<link rel="icon" href="https://cdn.test/dark.png">',
    );
  });
});

describe("headerLinks, footer and announcement", () => {
  it("links URLs and resolved targets, leaves out what leads nowhere, menus for sub-links", () => {
    const out = html(
      headerLinks(
        brand({
          ...header({
            links: [
              { title: "Blog <new>", to: url("https://example.com/blog?a=1&b=2"), links: [] },
              { title: "Bad", to: url("javascript:alert(1)"), links: [] },
              { title: "Tab", to: url("java\tscript:alert(1)"), links: [] },
              { title: "Nowhere", to: { kind: "user", user: "u1" }, links: [] },
              { title: "Start", style: "button-primary", to: { kind: "page", page: "p1" }, links: [] },
              {
                title: "More",
                to: null,
                links: [
                  { title: "Guide", to: { kind: "page", page: "p2" } },
                  { title: "Mail", to: url("mailto:a@example.com") },
                  { title: "Space", to: { kind: "space", space: "s1" } },
                ],
              },
            ],
          }),
        }),
      ),
    );
    expect(out).toBe(
      '<nav class="site-links" aria-label="Site links"><ul>' +
        '<li><a href="https://example.com/blog?a=1&#x26;b=2">Blog &#x3C;new></a></li>' +
        '<li><a href="/p/p1" class="button-primary">Start</a></li>' +
        '<li><details><summary>More</summary><ul><li><a href="/p/p2">Guide</a></li>' +
        '<li><a href="mailto:a@example.com">Mail</a></li></ul></details></li></ul></nav>',
    );
  });

  it("gives the footer's groups with links and its copyright, escaped", () => {
    const out = html(
      footer(
        brand({
          footer: {
            groups: [
              { title: "Docs", links: [{ title: "Guide", to: { kind: "page", page: "p2" } }] },
              { title: "Empty", links: [{ title: "Gone", to: { kind: "file", file: "f" } }] },
            ],
            copyright: "© 2026 <Example>",
          },
          trademark: { enabled: false },
        }),
      ),
    );
    expect(out).toBe(
      '<footer class="site-footer"><nav aria-label="Footer"><div><p class="footer-title">Docs</p>' +
        '<ul><li><a href="/p/p2">Guide</a></li></ul></div></nav>' +
        '<p class="copyright">© 2026 &#x3C;Example></p></footer>',
    );
    const images = { light: "https://cdn.test/l.png", dark: "https://cdn.test/d.png" };
    expect(html(footer(brand({ footer: { groups: [], logo: images } })))).toContain(
      '<img class="brand-light" src="https://cdn.test/l.png" alt="">',
    );
  });

  it("shows the announcement only while enabled, in its style, its link when it resolves", () => {
    const banner = (link?: LinkTarget, style: "info" | "danger" = "danger", enabled = true) =>
      html(
        announcement(
          brand({
            announcement: {
              enabled,
              message: "Read <this>",
              style,
              ...(link && { link: { title: "Details", to: link } }),
            },
          }),
        ),
      );
    expect(banner(undefined, "info", false)).toBeUndefined();
    expect(banner({ kind: "page", page: "p3" })).toBe(
      '<div class="announcement announcement-danger"><p>Read &#x3C;this> <a href="/p/p3">Details</a></p></div>',
    );
    expect(banner({ kind: "collection", collection: "c" }, "info")).toBe(
      '<div class="announcement announcement-info"><p>Read &#x3C;this></p></div>',
    );
    expect(banner(undefined, '"><script>' as "info")).toBe(
      '<div class="announcement announcement-info"><p>Read &#x3C;this></p></div>',
    );
  });
});

describe("GitBook's newer settings", () => {
  it("reads an emoji from its characters or code points, and nothing else", () => {
    expect(emojiText("🎉")).toBe("🎉");
    expect(emojiText("1f389")).toBe("🎉");
    expect(emojiText("1f468-200d-1f4bb")).toBe("👨‍💻");
    for (const bad of ["abc", "123", "<svg>", "🎉<", "110000", ""])
      expect(emojiText(bad), bad).toBeUndefined();
  });

  it("shows translations in the visitor's language, the text in any other", () => {
    const translatedBrand = (language?: string) =>
      brand(
        {
          ...header({
            links: [
              {
                title: "Blog",
                localizedTitle: { fr: "Journal" } as Record<string, string> as Record<string, never>,
                to: url("https://example.com/blog"),
                links: [],
              },
            ],
          }),
          announcement: {
            enabled: true,
            message: "Hello",
            localizedMessage: { fr: "Bonjour" } as Record<string, string> as Record<string, never>,
            style: "info",
          },
        },
        language,
      );
    expect(html(headerLinks(translatedBrand("fr")))).toContain(">Journal</a>");
    expect(html(announcement(translatedBrand("fr")))).toContain("Bonjour");
    expect(html(headerLinks(translatedBrand("de")))).toContain(">Blog</a>");
    expect(html(announcement(translatedBrand()))).toContain("Hello");
    expect(translated("Docs", { constructor: "x" }, "constructor")).toBe("x");
    expect(translated("Docs", {}, "toString")).toBe("Docs");
  });

  it("opens only http(s) links out in a new tab, when asked", () => {
    const blank = settings({ externalLinks: { target: "blank" } });
    expect(linkProps(blank, "https://example.com/")).toEqual({
      href: "https://example.com/",
      target: "_blank",
      rel: "noopener noreferrer",
    });
    expect(linkProps(blank, "/s/x/page")).toEqual({ href: "/s/x/page" });
    expect(linkProps(blank, "mailto:a@example.com")).toEqual({ href: "mailto:a@example.com" });
    expect(linkProps(settings(), "https://example.com/")).toEqual({ href: "https://example.com/" });
  });

  it("colours the header by preset, hex only, and tints a `match` background with the primary colour", () => {
    const preset = (changes: Partial<CustomizationSettings["header"]>) =>
      brandStyle(settings(header(changes)));
    expect(preset({ preset: "bold" })).toContain("body>header{background:var(--accent);color:var(--bg)");
    expect(preset({ preset: "contrast" })).toContain("body>header{background:var(--fg);color:var(--bg)");
    expect(preset({ preset: "none" })).toContain("body>header{border-bottom-color:transparent}");
    expect(preset({ preset: "default" })).not.toContain("body>header");
    const evil = preset({
      preset: "custom",
      backgroundColor: { light: "red;}body{display:none", dark: "#000" },
      linkColor: { light: "#fff", dark: "#000" },
    });
    expect(evil).not.toMatch(/red|body\{|body>header\{/);
    expect(evil).toContain("body>header a{color:light-dark(#ffffff,#000000)}");
    const match = brandStyle(styling({ background: "match", primaryColor: { light: "#f00", dark: "#00f" } }));
    expect(property(match, "--bg")).toBe("light-dark(#fff5f5,#0c1025)");
  });
});
