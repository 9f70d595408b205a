import type { Schema } from "@quire/client";
import { describe, expect, it } from "vitest";
import {
  contrastRatio,
  formFromSettings,
  formProblems,
  inputFromForm,
  longHex,
  textColorOn,
} from "./customization.js";

/** GitBook's defaults, as the server answers a site never customized (trimmed to what the form reads). */
const settings = {
  styling: {
    theme: "clean",
    primaryColor: { light: "#346DDB", dark: "#346ddb" },
    infoColor: { light: "#787878", dark: "#787878" },
    successColor: { light: "#00c950", dark: "#00c950" },
    warningColor: { light: "#fe9a00", dark: "#fe9a00" },
    dangerColor: { light: "#fb2c36", dark: "#fb2c36" },
    corners: "rounded",
    links: "default",
    depth: "subtle",
    font: "Inter",
    monospaceFont: "IBMPlexMono",
    background: "plain",
    codeTheme: {
      default: { light: "default-light", dark: "default-dark" },
      openapi: { light: "default-light", dark: "default-dark" },
    },
    icons: "regular",
    sidebar: { background: "default", list: "default" },
    search: "subtle",
  },
  internationalization: { locale: "en" },
  favicon: {},
  header: {
    preset: "default",
    links: [
      { title: "Blog", to: { kind: "url", url: "https://example.com/blog" }, links: [] },
      { title: "Guide", to: { kind: "space", space: "space1" }, links: [] },
    ],
  },
  footer: { groups: [] },
  themes: { default: "system", toggeable: true },
  pdf: { enabled: false },
  feedback: { enabled: false },
  ai: { mode: "none", pageLinkSummaries: { enabled: false } },
  advancedCustomization: { enabled: true },
  externalLinks: { target: "self" },
  pagination: { enabled: true },
  pageActions: { items: ["markdown"] },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: false },
  updatedAt: "2026-01-01T00:00:00.000Z",
} satisfies Schema<"SiteCustomizationSettings">;

describe("the customization form and the contract", () => {
  it("reads the light colour and the address links into the form", () => {
    expect(formFromSettings(settings)).toEqual({
      title: "",
      primaryColor: "#346ddb",
      theme: "clean",
      logoUrl: "",
      headerLinks: [{ title: "Blog", url: "https://example.com/blog" }],
      copyright: "",
    });
  });

  it("puts the form back into the whole settings, keeping links it cannot show and dropping what is read-only", () => {
    const form = {
      ...formFromSettings(settings),
      title: "  Acme Docs ",
      primaryColor: "#0B6E4F",
      theme: "bold" as const,
      logoUrl: "https://example.com/logo.svg",
      copyright: "© Acme",
    };
    const input = inputFromForm(settings, form);
    expect(input).not.toHaveProperty("updatedAt");
    expect(input.title).toBe("Acme Docs");
    expect(input.styling.primaryColor).toEqual({ light: "#0b6e4f", dark: "#0b6e4f" });
    expect(input.styling.theme).toBe("bold");
    expect(input.styling.font).toBe("Inter");
    expect(input.header.logo).toEqual({
      light: "https://example.com/logo.svg",
      dark: "https://example.com/logo.svg",
    });
    expect(input.header.links.map((link) => link.title)).toEqual(["Blog", "Guide"]);
    expect(input.footer.copyright).toBe("© Acme");
  });

  it("leaves out what the form empties: no title, no logo, no copyright", () => {
    const input = inputFromForm(
      {
        ...settings,
        title: "Old",
        header: { ...settings.header, logo: { light: "https://a.b/l.png", dark: "https://a.b/l.png" } },
      },
      { ...formFromSettings(settings), title: " ", logoUrl: "" },
    );
    expect(input).not.toHaveProperty("title");
    expect(input.header).not.toHaveProperty("logo");
    expect(input.footer).not.toHaveProperty("copyright");
  });

  it("tells each field the contract would refuse", () => {
    const problems = formProblems({
      title: "A",
      primaryColor: "blue",
      theme: "clean",
      logoUrl: "logo.png",
      headerLinks: [{ title: "", url: "ftp://x" }],
      copyright: "x".repeat(513),
    });
    expect(Object.keys(problems).sort()).toEqual(
      ["copyright", "headerLinks.0.title", "headerLinks.0.url", "logoUrl", "primaryColor", "title"].sort(),
    );
    expect(formProblems(formFromSettings(settings))).toEqual({});
  });
});

describe("colours of the preview", () => {
  it("widens short hex colours", () => {
    expect(longHex("#AbC")).toBe("#aabbcc");
    expect(longHex("#0B6E4F")).toBe("#0b6e4f");
  });

  it("measures WCAG contrast", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#ffffff", "#777777")).toBe(contrastRatio("#777777", "#ffffff"));
  });

  it("writes on a colour in white or black, whichever reads at AA", () => {
    expect(textColorOn("#0b6e4f")).toBe("#ffffff");
    expect(textColorOn("#ffd400")).toBe("#000000");
    for (const color of ["#777777", "#346ddb", "#ff0000", "#00ff00", "#0000ff", "#808080"])
      expect(contrastRatio(color, textColorOn(color))).toBeGreaterThanOrEqual(4.5);
  });
});
