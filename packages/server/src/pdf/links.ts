import { type Reference, type References, referencedFile } from "../content/engine/references.js";
import type { PageEntry } from "../content/trie.js";
import { type FileTable, presentFile, publicBase } from "../files/index.js";
import type { Services } from "../services.js";
import type { Urls } from "../urls.js";
import type { PdfLink } from "./render.js";

/** The images pdfmake can embed. */
const EMBEDDED_TYPES = new Set(["image/png", "image/jpeg"]);

/** Most bytes of images in one export, so that one export cannot fill the PDF worker's memory. */
export const PDF_MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** What the links of an export are resolved against: its revision and its files. */
export interface ExportContext {
  references: References;
  /** The files the revision shows, by id. */
  files: ReadonlyMap<string, FileTable>;
  urls: Urls;
  secretKey: string;
}

/**
 * Where each URL written on each page of the export (`links[i]`, as the engine read page `i`) leads in
 * the PDF: a page of the export inside it; a file to its download URL (an image of it embedded where
 * it can be); a web address or the server's own path to its address. Pages outside the export, and
 * what the revision does not have, are left out: their text stays.
 */
export function pdfLinks(
  context: ExportContext,
  pages: readonly PageEntry[],
  links: readonly (readonly string[])[],
): Record<string, PdfLink>[] {
  const indexOf = new Map(pages.map((page, i) => [page.id, i]));
  const linkOf = (reference: Reference, from: number): PdfLink | undefined => {
    switch (reference.kind) {
      case "page": {
        const page = indexOf.get(reference.page.id);
        if (page === undefined) return undefined;
        return { page, ...(reference.fragment !== undefined && { anchor: reference.fragment }) };
      }
      case "fragment":
        return { page: from, anchor: reference.fragment };
      case "file": {
        const file = referencedFile(context.files, reference);
        if (!file) return undefined;
        const url = presentFile(file, context.urls, context.secretKey).downloadURL;
        return { url, ...(EMBEDDED_TYPES.has(file.content_type) && { image: file.id }) };
      }
      case "url":
        if (/^https?:\/\//i.test(reference.url)) return { url: reference.url };
        return reference.url.startsWith("/")
          ? { url: `${publicBase(context.urls)}${reference.url}` }
          : undefined;
      case "missing-page":
        return undefined;
    }
  };
  return pages.map((page, i) => {
    const resolved: Record<string, PdfLink> = {};
    for (const url of links[i] ?? []) {
      const link = linkOf(context.references.resolve(page, url), i);
      if (link) resolved[url] = link;
    }
    return resolved;
  });
}

/**
 * The images the links name, by file id, as data URLs: in order of first use, while their bytes stay
 * within `PDF_MAX_IMAGE_BYTES`; those past it (or whose bytes are gone) show their alt text.
 */
export async function embeddedImages(
  blobs: Services["files"]["blobs"],
  files: ReadonlyMap<string, FileTable>,
  links: readonly Readonly<Record<string, PdfLink>>[],
): Promise<Record<string, string>> {
  const wanted = new Set(
    links.flatMap((page) =>
      Object.values(page).flatMap((link) =>
        "image" in link && link.image !== undefined ? [link.image] : [],
      ),
    ),
  );
  const images: Record<string, string> = {};
  let budget = PDF_MAX_IMAGE_BYTES;
  for (const id of wanted) {
    const file = files.get(id);
    if (!file || Number(file.size) > budget) continue;
    const bytes = await blobs.get(file.sha256);
    if (!bytes) continue;
    budget -= bytes.byteLength;
    images[id] = `data:${file.content_type};base64,${Buffer.from(bytes).toString("base64")}`;
  }
  return images;
}
