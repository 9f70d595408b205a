import type { Schema } from "@quire/api-types";
import type { PageTree } from "../content/pages.js";
import type { PageEntry } from "../content/trie.js";
import { presentFile } from "../files/index.js";
import { type ContentView, type PagesMeta, presentPage } from "../space-content/index.js";
import type { Urls } from "../urls.js";
import type { ResolvedLink } from "./resolve.js";

/** What every reference of one listing shares: the organization and space, as the caller sees them. */
export interface ReferenceContext {
  organization: Schema<"Organization">;
  space: Schema<"Space">;
  tree: PageTree;
  /** The metadata of the tree's pages' bodies. */
  meta: PagesMeta;
  view: ContentView;
  urls: Urls;
  secretKey: string;
}

export function presentPageReference(entry: PageEntry, context: ReferenceContext): Schema<"PageReference"> {
  return {
    kind: "page",
    organization: context.organization,
    space: context.space,
    page: presentPage(context.tree, entry, context.view, context.urls, {
      children: false,
      meta: context.meta,
    }),
  };
}

function presentTarget(
  link: ResolvedLink,
  context: ReferenceContext,
): Schema<"ContentReference"> | undefined {
  const { target } = link;
  switch (target.kind) {
    case "page":
      return presentPageReference(target.page, context);
    case "file":
      return {
        kind: "file",
        organization: context.organization,
        space: context.space,
        file: presentFile(target.file, context.urls, context.secretKey),
      };
    case "url":
      return { kind: "url", url: target.url };
    case "missing":
      return undefined;
  }
}

export function presentLink(link: ResolvedLink, context: ReferenceContext): Schema<"LinkReference"> {
  const target = presentTarget(link, context);
  return {
    status: link.status,
    relation: "reference",
    ...(target && { targetReference: target }),
    locationReferences: link.locations.map((page) => presentPageReference(page, context)),
  };
}
