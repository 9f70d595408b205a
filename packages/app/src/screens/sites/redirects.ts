import type { Schema } from "@quire/client";
import { t } from "../../i18n/index.js";

/** The contract's `SiteRedirectSourcePath`: `/` and segments, with an optional trailing `*` or `/*`. */
const SOURCE =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;

export const isSourcePath = (text: string) => text.length <= 512 && SOURCE.test(text);

/** Where a redirect sends visitors, in words. */
export function destinationLabel(destination: Schema<"SiteRedirectDestination">): string {
  switch (destination.kind) {
    case "external":
      return destination.url;
    case "site-section":
      return t("sites.redirects.toSection");
    case "site-space":
      return t("sites.redirects.toSpace");
    case "site-page":
      return t("sites.redirects.toPage");
  }
}
