import type { Schema } from "@quire/client";
import { type MessageKey, t } from "../../i18n/index.js";

export type Visibility = Schema<"SiteVisibility">;

/** Every audience the contract offers, in the order of the Visibility select. */
export const VISIBILITIES: readonly Visibility[] = ["public", "unlisted", "share-link", "visitor-auth"];

const LABELS: Record<Visibility, MessageKey> = {
  public: "sites.visibility.public",
  unlisted: "sites.visibility.unlisted",
  "share-link": "sites.visibility.shareLink",
  "visitor-auth": "sites.visibility.visitorAuth",
};

/** Who can read the site once published, in words. */
export const visibilityLabel = (visibility: Visibility) => t(LABELS[visibility]);

export const isVisibility = (value: string): value is Visibility =>
  (VISIBILITIES as readonly string[]).includes(value);
