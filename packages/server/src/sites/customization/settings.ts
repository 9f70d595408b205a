import type { Schema } from "@quire/api-types";

/**
 * Customization settings as stored and applied: only the fields the contract names are kept (models
 * are open, and GitBook's clients send fields Quire has no use for), and a site space's override is
 * applied field by field over its site's settings. Pure functions, no storage.
 */
export type CustomizationSettings = Schema<"SiteCustomizationSettings">;
export type CustomizationOverride = Schema<"SiteSpaceCustomizationOverride">;
type ThemedColor = Schema<"ThemedColor">;
type ThemedUrl = Schema<"ThemedUrl">;
type LinkTarget = Schema<"SiteLinkTarget">;
type Link = Schema<"CustomizationLink">;

/** GitBook's name for a site's own code theme: the one the site's highlighter applies. */
const SITE_CODE_THEME: Schema<"CustomizationThemedCodeTheme"> = {
  light: "default-light",
  dark: "default-dark",
};

/** What a site shows when it has no customization of its own: GitBook's defaults (behaviour §4.3). */
export const DEFAULT_CUSTOMIZATION: CustomizationSettings = {
  styling: {
    theme: "clean",
    primaryColor: { light: "#346DDB", dark: "#346DDB" },
    infoColor: { light: "#787878", dark: "#787878" },
    successColor: { light: "#00C950", dark: "#00C950" },
    warningColor: { light: "#FE9A00", dark: "#FE9A00" },
    dangerColor: { light: "#FB2C36", dark: "#FB2C36" },
    corners: "rounded",
    links: "default",
    depth: "subtle",
    font: "Inter",
    monospaceFont: "IBMPlexMono",
    background: "plain",
    codeTheme: { default: SITE_CODE_THEME, openapi: SITE_CODE_THEME },
    icons: "regular",
    sidebar: { background: "default", list: "default" },
    search: "subtle",
  },
  internationalization: { locale: "en" },
  favicon: {},
  header: { preset: "default", links: [] },
  footer: { groups: [] },
  themes: { default: "light", toggeable: true },
  pdf: { enabled: false },
  feedback: { enabled: false },
  ai: { mode: "none", pageLinkSummaries: { enabled: false } },
  advancedCustomization: { enabled: true },
  externalLinks: { target: "self" },
  pagination: { enabled: true },
  // What the site offers of GitBook's page actions: the page's Markdown (`<page>.md`).
  pageActions: { items: ["markdown"] },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  // GitBook's default is true; Quire sets no visitor cookie.
  insights: { trackingCookie: false },
};

const color = ({ light, dark }: ThemedColor): ThemedColor => ({ light, dark });
const themedUrl = ({ light, dark }: ThemedUrl): ThemedUrl => ({ light, dark });
const toggle = ({ enabled }: { enabled: boolean }) => ({ enabled });
const same = <T>(value: T): T => value;

/** `value` without the optional fields whose value is undefined. */
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function target(to: LinkTarget): LinkTarget {
  switch (to.kind) {
    case "url":
      return { kind: to.kind, url: to.url };
    case "file":
      return defined({ kind: to.kind, file: to.file, space: to.space });
    case "page":
      return defined({ kind: to.kind, page: to.page, space: to.space });
    case "anchor":
      return defined({ kind: to.kind, anchor: to.anchor, space: to.space, page: to.page });
    case "user":
      return { kind: to.kind, user: to.user };
    case "collection":
      return { kind: to.kind, collection: to.collection };
    case "space":
      return { kind: to.kind, space: to.space };
    case "reusable-content":
      return defined({ kind: to.kind, reusableContent: to.reusableContent, space: to.space });
    case "tag":
      return defined({ kind: to.kind, tag: to.tag, space: to.space });
    case "openapi":
      return { kind: to.kind, spec: to.spec };
  }
}

/** Translations as given: their languages are checked (`assertSupported` in ./unsupported.ts). */
const localized = <T extends object>(text: T | undefined): T | undefined => text && { ...text };

const link = (l: Link): Link =>
  defined({ title: l.title, localizedTitle: localized(l.localizedTitle), to: target(l.to) });

const headerLinks = (links: Schema<"CustomizationHeaderLink">[]) =>
  links.map((l) =>
    defined({
      title: l.title,
      localizedTitle: localized(l.localizedTitle),
      style: l.style,
      to: l.to && target(l.to),
      links: l.links.map(link),
      // GitBook's empty condition is no condition.
      condition: l.condition || undefined,
    }),
  );

const footerGroups = (groups: Schema<"CustomizationFooterGroup">[]) =>
  groups.map((g) =>
    defined({ title: g.title, localizedTitle: localized(g.localizedTitle), links: g.links.map(link) }),
  );

const favicon = (f: Schema<"CustomizationFavicon">) =>
  defined({ icon: f.icon && themedUrl(f.icon), emoji: f.emoji });

const announcement = (a: Schema<"CustomizationAnnouncement">) =>
  defined({
    enabled: a.enabled,
    message: a.message,
    localizedMessage: localized(a.localizedMessage),
    link: a.link && link(a.link),
    style: a.style,
  });

const codeTheme = ({ light, dark }: Schema<"CustomizationThemedCodeTheme">) => ({ light, dark });

const url = ({ url }: Schema<"CustomizationUrl">) => defined({ url });

const socialAccount = ({ platform, handle, display }: Schema<"SiteSocialAccount">) => ({
  platform,
  handle,
  display: { footer: display.footer, header: display.header },
});

const ai = (a: Schema<"CustomizationAIInput">): Schema<"CustomizationAI"> =>
  defined({
    mode: a.mode ?? "none",
    greeting: a.greeting,
    localizedGreeting: localized(a.localizedGreeting),
    suggestions: a.suggestions && [...a.suggestions],
    instructions: a.instructions,
    pageLinkSummaries: toggle(a.pageLinkSummaries ?? { enabled: false }),
  });

const tint = (t: Schema<"CustomizationTint">) => ({ color: color(t.color) });

/**
 * The settings of a replacement, as stored: the contract's fields only, GitBook's defaults for those
 * omitted (`pdf` off). Also what stored settings are read through, so that settings stored before a
 * field existed answer its default.
 */
export function settingsOf(input: Schema<"SiteCustomizationSettingsInput">): CustomizationSettings {
  const { styling: s, header, footer, themes } = input;
  const defaults = DEFAULT_CUSTOMIZATION;
  return defined({
    title: input.title,
    localizedTitle: localized(input.localizedTitle),
    styling: defined({
      theme: s.theme,
      primaryColor: color(s.primaryColor),
      tint: s.tint && tint(s.tint),
      infoColor: color(s.infoColor),
      successColor: color(s.successColor),
      warningColor: color(s.warningColor),
      dangerColor: color(s.dangerColor),
      corners: s.corners,
      depth: s.depth ?? defaults.styling.depth,
      links: s.links,
      // Fonts are names: `assertSupported` turns custom definitions away.
      font: s.font,
      headingFont: s.headingFont ?? undefined,
      monospaceFont: s.monospaceFont ?? defaults.styling.monospaceFont,
      background: s.background ?? defaults.styling.background,
      codeTheme: s.codeTheme
        ? { default: codeTheme(s.codeTheme.default), openapi: codeTheme(s.codeTheme.openapi) }
        : defaults.styling.codeTheme,
      icons: s.icons,
      sidebar: { background: s.sidebar.background, list: s.sidebar.list },
      search: s.search,
    }),
    internationalization: { locale: input.internationalization.locale },
    favicon: favicon(input.favicon),
    header: defined({
      preset: header.preset ?? defaults.header.preset,
      logo: header.logo && themedUrl(header.logo),
      primaryLink: header.primaryLink && target(header.primaryLink),
      backgroundColor: header.backgroundColor && color(header.backgroundColor),
      linkColor: header.linkColor && color(header.linkColor),
      links: headerLinks(header.links),
    }),
    footer: defined({
      logo: footer.logo && themedUrl(footer.logo),
      groups: footerGroups(footer.groups),
      copyright: footer.copyright,
    }),
    announcement: input.announcement && announcement(input.announcement),
    themes: { default: themes.default, toggeable: themes.toggeable },
    pdf: toggle(input.pdf ?? { enabled: false }),
    feedback: toggle(input.feedback),
    aiSearch: input.aiSearch && toggle(input.aiSearch),
    ai: ai(input.ai ?? {}),
    advancedCustomization: toggle(input.advancedCustomization),
    externalLinks: { target: input.externalLinks?.target ?? defaults.externalLinks.target },
    pagination: toggle(input.pagination ?? defaults.pagination),
    pageActions: { items: [...(input.pageActions ?? defaults.pageActions).items] },
    trademark: toggle(input.trademark ?? defaults.trademark),
    privacyPolicy: url(input.privacyPolicy ?? {}),
    socialPreview: url(input.socialPreview ?? {}),
    socialAccounts: (input.socialAccounts ?? []).map(socialAccount),
    insights: { trackingCookie: input.insights?.trackingCookie ?? defaults.insights.trackingCookie },
  });
}

/**
 * What a site space may override: each leaf with how its value is kept; the other entries are
 * groups whose fields are overridden one by one (GitBook's `SiteSpaceCustomizationOverride`).
 */
// biome-ignore lint/suspicious/noExplicitAny: each leaf takes the contract's type of its field.
type Leaf = (value: any) => unknown;
interface Shape {
  readonly [field: string]: Leaf | Shape;
}

const OVERRIDABLE: Shape = {
  title: same,
  localizedTitle: localized,
  styling: {
    theme: same,
    primaryColor: color,
    infoColor: color,
    successColor: color,
    warningColor: color,
    dangerColor: color,
    tint,
    corners: same,
    depth: same,
    background: same,
    codeTheme: { default: codeTheme, openapi: codeTheme },
    links: same,
    icons: same,
    sidebar: { background: same, list: same },
    search: same,
  },
  internationalization: { locale: same },
  favicon,
  announcement,
  header: {
    preset: same,
    logo: themedUrl,
    primaryLink: target,
    backgroundColor: color,
    linkColor: color,
    links: headerLinks,
  },
  footer: { logo: themedUrl, groups: footerGroups, copyright: same },
  themes: { default: same, toggeable: same },
  feedback: { enabled: same },
  externalLinks: { target: same },
  pagination: { enabled: same },
  trademark: { enabled: same },
  privacyPolicy: { url: same },
  socialPreview: { url: same },
};

type Fields = Record<string, unknown>;

function merged(stored: Fields, patch: Fields, shape: Shape): Fields {
  const result = { ...stored };
  for (const [field, part] of Object.entries(shape)) {
    const value = patch[field];
    if (value === undefined) continue;
    if (value === null) delete result[field];
    else if (typeof part === "function") result[field] = part(value);
    else {
      const group = merged((result[field] as Fields | undefined) ?? {}, value as Fields, part);
      if (Object.keys(group).length > 0) result[field] = group;
      else delete result[field];
    }
  }
  return result;
}

/**
 * A site space's override after `patch`: a field given replaces its override, null removes it, an
 * omitted one stays; groups left empty go. Fields the contract does not name are left out.
 */
export const patchedOverride = (stored: CustomizationOverride, patch: CustomizationOverride) =>
  merged(stored, patch, OVERRIDABLE) as CustomizationOverride;

function applied(settings: Fields, override: Fields, shape: Shape): Fields {
  const result = { ...settings };
  for (const [field, value] of Object.entries(override)) {
    const part = shape[field];
    if (part === undefined) continue;
    result[field] =
      typeof part === "function"
        ? value
        : applied((settings[field] as Fields | undefined) ?? {}, value as Fields, part);
  }
  return result;
}

/** The settings a site space shows: its site's, with each field it overrides replaced. */
export const withOverride = (settings: CustomizationSettings, override: CustomizationOverride) =>
  applied(settings, override, OVERRIDABLE) as CustomizationSettings;
