import type { Role } from "../db/schema.js";
import { atLeast } from "../policy.js";

/** Posting comments and replies, reacting, resolving and reopening threads. */
export const canComment = (role: Role) => atLeast(role, "comment");

/** Only its author changes the text of a comment or reply, while they may still comment. */
export const canEditText = (role: Role, callerId: string, authorId: string) =>
  callerId === authorId && canComment(role);

/** Deleting a comment or reply: its author, or an admin of the space. */
export const canDeleteText = (role: Role, callerId: string, authorId: string) =>
  atLeast(role, "admin") || canEditText(role, callerId, authorId);
