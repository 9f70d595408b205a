import type { Schema } from "@quire/client";
import type { InfiniteData } from "@tanstack/react-query";
import type { Role } from "../../components/RoleSelect.js";

type Member = Schema<"Member">;

/** The role offered when the organization names no default (as the server gives new members). */
export const DEFAULT_ROLE: Role = "read";

/**
 * The addresses typed in the invite dialog, separated by commas, semicolons, spaces or lines, each once
 * (whatever its case); `invalid` lists what is not an address, so the person can fix it.
 */
export function parseEmails(text: string): { emails: string[]; invalid: string[] } {
  const emails: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const word of text.split(/[\s,;]+/)) {
    if (word === "") continue;
    // The server checks for real; this only catches what cannot be an address.
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(word)) invalid.push(word);
    else if (!seen.has(word.toLowerCase())) {
      seen.add(word.toLowerCase());
      emails.push(word);
    }
  }
  return { emails, invalid };
}

/** The server's page where a signed-in person joins through an invite link (outside the app). */
export const inviteLinkUrl = (origin: string, inviteId: string) =>
  new URL(`/join/link/${encodeURIComponent(inviteId)}`, origin).href;

/** The loaded pages of members with `userId`'s role set to `role` (an optimistic change). */
export function withRole<Page extends { items: Member[] }>(
  data: InfiniteData<Page>,
  userId: string,
  role: Role | null,
): InfiniteData<Page> {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((member) => (member.id === userId ? { ...member, role } : member)),
    })),
  };
}

/** The loaded pages without `userId` (an optimistic removal), the count one less where it was. */
export function without<Page extends { items: Member[]; count: number }>(
  data: InfiniteData<Page>,
  userId: string,
): InfiniteData<Page> {
  const found = data.pages.some((page) => page.items.some((member) => member.id === userId));
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      count: found ? page.count - 1 : page.count,
      items: page.items.filter((member) => member.id !== userId),
    })),
  };
}
