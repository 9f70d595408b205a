import type { Schema } from "@quire/client";
import type { MessageKey } from "../../i18n/index.js";

type Settings = Schema<"SiteCustomizationSettings">;
type Input = Schema<"SiteCustomizationSettingsInput">;
type HeaderLink = Schema<"CustomizationHeaderLink">;
export type Theme = Schema<"CustomizationTheme">;

export const THEMES: readonly Theme[] = ["clean", "muted", "bold", "gradient"];

/** A header link the form edits: a title and an address (the form's only kind of target). */
export interface LinkFields {
  title: string;
  url: string;
}

/** What the Customization form edits, as the person types it. */
export interface CustomizationForm {
  title: string;
  primaryColor: string;
  theme: Theme;
  logoUrl: string;
  headerLinks: LinkFields[];
  copyright: string;
}

/** `#abc` as `#aabbcc`, lower case: the form of a colour input's value. */
export function longHex(hex: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(hex);
  return (short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : hex).toLowerCase();
}

const isUrlLink = (link: HeaderLink): link is HeaderLink & { to: { kind: "url"; url: string } } =>
  link.to !== null && link.to.kind === "url";

/** The form's fields for the site's settings (the light theme's colour and logo). */
export function formFromSettings(settings: Settings): CustomizationForm {
  return {
    title: settings.title ?? "",
    primaryColor: longHex(settings.styling.primaryColor.light),
    theme: settings.styling.theme,
    logoUrl: settings.header.logo?.light ?? "",
    headerLinks: settings.header.links
      .filter(isUrlLink)
      .map((link) => ({ title: link.title, url: link.to.url })),
    copyright: settings.footer.copyright ?? "",
  };
}

/**
 * The whole customization to PUT: the settings as read, with the form's fields in place. The form sets
 * one colour and one logo for both colour modes; header links to anything but an address (a page, a
 * space…) are kept after the form's, as the form cannot show them.
 */
export function inputFromForm(settings: Settings, form: CustomizationForm): Input {
  const { updatedAt: _read, title: _title, ...rest } = settings;
  const { logo: _logo, ...header } = settings.header;
  const { copyright: _copyright, ...footer } = settings.footer;
  const title = form.title.trim();
  const logo = form.logoUrl.trim();
  const copyright = form.copyright.trim();
  const color = longHex(form.primaryColor);
  return {
    ...rest,
    ...(title && { title }),
    styling: { ...settings.styling, theme: form.theme, primaryColor: { light: color, dark: color } },
    header: {
      ...header,
      ...(logo && { logo: { light: logo, dark: logo } }),
      links: [
        ...form.headerLinks.map((link) => ({
          title: link.title.trim(),
          to: { kind: "url" as const, url: link.url.trim() },
          links: [],
        })),
        ...settings.header.links.filter((link) => !isUrlLink(link)),
      ],
    },
    footer: { ...footer, ...(copyright && { copyright }) },
  };
}

const isWebUrl = (text: string) => {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** What is wrong with each field, by field name (`headerLinks.0.url`…), as the contract would refuse it. */
export function formProblems(form: CustomizationForm): Record<string, MessageKey> {
  const problems: Record<string, MessageKey> = {};
  const title = form.title.trim();
  if (title && (title.length < 2 || title.length > 128)) problems.title = "sites.customize.titleLength";
  if (!/^#[0-9a-f]{6}$/i.test(form.primaryColor)) problems.primaryColor = "sites.customize.colorFormat";
  if (form.logoUrl.trim() && !isWebUrl(form.logoUrl.trim())) problems.logoUrl = "sites.customize.urlFormat";
  form.headerLinks.forEach((link, index) => {
    if (!link.title.trim()) problems[`headerLinks.${index}.title`] = "sites.customize.linkTitleEmpty";
    if (!isWebUrl(link.url.trim())) problems[`headerLinks.${index}.url`] = "sites.customize.urlFormat";
  });
  if (form.copyright.trim().length > 512) problems.copyright = "sites.customize.copyrightLength";
  return problems;
}

/** WCAG's relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const value = Number.parseInt(longHex(hex).slice(1), 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
}

/** WCAG's contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** White or black, whichever reads better on `background` (at least 4.5:1 for any colour). */
export function textColorOn(background: string): "#ffffff" | "#000000" {
  return contrastRatio(background, "#ffffff") >= contrastRatio(background, "#000000") ? "#ffffff" : "#000000";
}

/** WCAG AA's least contrast for body text. */
export const AA_CONTRAST = 4.5;
