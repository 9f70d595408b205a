import type { Schema } from "@quire/api-types";
import type { FrontMatter } from "./engine/gitbook.js";
import { isMapping } from "./mapping.js";

/**
 * What a page's listing shows of its body's front matter (GitBook's page metadata). Read once per
 * body when the body is written (`ContentStorage.flush`), so that listing pages never parses one.
 */
export type PageMeta = Pick<
  FrontMatter,
  "description" | "icon" | "layout" | "hidden" | "noIndex" | "noRobotsIndex"
>;

const META_KEYS = ["description", "icon", "layout", "hidden", "noIndex", "noRobotsIndex"] as const;

/** The page metadata of a body's front matter; undefined when it has none. */
export function pageMetaOf(frontMatter: FrontMatter | undefined): PageMeta | undefined {
  if (!frontMatter) return undefined;
  const meta: Record<string, unknown> = {};
  for (const key of META_KEYS) if (frontMatter[key] !== undefined) meta[key] = frontMatter[key];
  return Object.keys(meta).length > 0 ? (meta as PageMeta) : undefined;
}

/** Which parts of a page are shown (see `pageLayout`). */
export type PageLayout = Schema<"PageLayout">;

/** The parts of a page GitBook's layout shows or hides, each written `part: { visible: false }`. */
const PARTS = [
  "cover",
  "title",
  "description",
  "tableOfContents",
  "outline",
  "pagination",
  "metadata",
  "tags",
  "actions",
  "anchors",
] as const;

function oneOf<T extends string>(value: unknown, allowed: readonly T[], otherwise: T): T {
  return allowed.includes(value as T) ? (value as T) : otherwise;
}

/**
 * A page's layout as GitBook's front matter writes it (`width: wide`, `title: { visible: false }`,
 * `cover: { visible: true, size: hero }`…): what it leaves out, or writes in a way GitBook does not,
 * takes GitBook's default (every part shown, the default width, a hero cover without a mask).
 */
export function pageLayout(written: Record<string, unknown> | undefined): PageLayout {
  const cover = isMapping(written?.cover) ? written.cover : {};
  const layout: Record<string, unknown> = {
    width: oneOf(written?.width, ["default", "wide"], "default"),
    coverSize: oneOf(cover.size, ["hero", "full", "background"], "hero"),
    coverMask: oneOf(cover.mask, ["none", "radial"], "none"),
  };
  for (const part of PARTS) {
    const setting = written?.[part];
    layout[part] = isMapping(setting) && typeof setting.visible === "boolean" ? setting.visible : true;
  }
  return layout as PageLayout;
}
