import type { Schema } from "@quire/client";

type SectionChanges = Schema<"UpdateSiteSectionRequest">;

/** The condition showing an item only to visitors whose boolean claim at `path` is true. */
export const claimCondition = (path: string) => `visitor.claims.${path} == true`;

/** `condition` with the claim at `path` required too: the claim's test alone when it is empty. */
export function withClaim(condition: string, path: string): string {
  const typed = condition.trim();
  return typed === "" ? claimCondition(path) : `${typed} && ${claimCondition(path)}`;
}

/**
 * The condition to send for what was typed, when it differs from the saved one: an emptied field
 * removes it (null), as the contract reads an omitted condition as unchanged.
 */
export function conditionChange(saved: string | undefined, typed: string): { condition?: string | null } {
  const value = typed.trim();
  if (value === (saved ?? "")) return {};
  return { condition: value === "" ? null : value };
}

/** The fields of a section's Edit dialog that differ from the section: all its PATCH sends. */
export function sectionChanges(
  section: { title: string; path: string; condition?: string },
  typed: { title: string; path: string; condition: string },
): SectionChanges {
  const title = typed.title.trim();
  const path = typed.path.trim();
  return {
    ...(title !== section.title && { title }),
    ...(path !== section.path && { path }),
    ...conditionChange(section.condition, typed.condition),
  };
}
