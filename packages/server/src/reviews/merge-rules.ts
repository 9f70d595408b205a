import type { Schema } from "@quire/api-types";
import { fromJson, type JsonText, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { ApiError, badRequest } from "../http/errors.js";
import { nonMembers } from "../members/index.js";
import type { ReviewStatus } from "./tables.js";

type MergeRules = Schema<"MergeRulesStandaloneConfiguration">;
type StoredRules = JsonText<MergeRules> | null;

/**
 * The rules as a column stores them (`organizations.merge_rules`, `spaces.merge_rules`): null for the
 * default (none for an organization, the organization's for a space), JSON otherwise. 400 when a rule
 * names a user who is not a member of the organization.
 */
export async function storedMergeRules(
  db: Db,
  organizationId: string,
  rules: Schema<"MergeRulesSpaceConfiguration">,
  defaultType: "none" | "inherit",
): Promise<StoredRules> {
  if (rules.type === defaultType) return null;
  if (rules.type === "inherit") throw badRequest("mergeRules: an organization has no rules to inherit.");
  if (rules.type === "rules") {
    const named = [...new Set(rules.rules.flatMap((rule) => ("users" in rule ? rule.users : [])))];
    const strangers = await nonMembers(db, organizationId, named);
    if (strangers.length > 0)
      throw badRequest(`mergeRules: ${strangers.join(", ")} is not a member of the organization.`);
  }
  return toJson(rules as MergeRules);
}

/** What a merge is checked against. */
export interface MergeContext {
  changeRequest: { createdBy: string; subject: string; revision: string; base: string };
  /** The main content's revision now. */
  mainRevision: string;
  /** Who merges. */
  mergedBy: string;
  /** Each reviewer's latest review, by reviewer (see `latestReviews`). */
  reviews: ReadonlyMap<string, { status: ReviewStatus; revision_id: string }>;
}

/**
 * The rules that apply to a space's merges: its own, else its organization's, as stored (see
 * `storedMergeRules`).
 */
export function effectiveMergeRules(space: StoredRules, organization: StoredRules): MergeRules {
  const stored = space ?? organization;
  return stored === null ? { type: "none" } : fromJson(stored);
}

/**
 * 409 `merge_rules_not_met`, naming each unmet rule and why, unless the merge meets every rule or
 * the one merging may bypass them. A review stands when its reviewer made no later one and the change
 * request did not change since.
 */
export function assertMergeRulesMet(rules: MergeRules, context: MergeContext): void {
  if (rules.type === "none") return;
  const { changeRequest, mergedBy } = context;
  if (
    rules.rules.some(
      (rule) => rule.rule === "allow_bypass" && "users" in rule && rule.users.includes(mergedBy),
    )
  )
    return;
  const standing = [...context.reviews].filter(([, review]) => review.revision_id === changeRequest.revision);
  const approvers = new Set(standing.filter(([, review]) => review.status === "approved").map(([id]) => id));
  const unmet: string[] = [];
  for (const rule of rules.rules) {
    const why = unmetBecause(rule, { ...context, standing: standing.length, approvers });
    if (why !== undefined) unmet.push(`${rule.rule} (${why})`);
  }
  if (unmet.length > 0)
    throw new ApiError(
      409,
      `The change request does not meet the space's merge rules: ${unmet.join("; ")}.`,
      {
        type: "merge_rules_not_met",
      },
    );
}

/** Why `rule` is not met, or undefined when it is. */
function unmetBecause(
  rule: Schema<"MergeRule">,
  context: MergeContext & { standing: number; approvers: ReadonlySet<string> },
): string | undefined {
  const { changeRequest, approvers, standing } = context;
  switch (rule.rule) {
    case "require_at_least_one_review":
      return standing > 0 ? undefined : "no review of the change request as it is";
    case "require_at_least_one_approved_review":
      return approvers.size > 0 ? undefined : "no approving review of the change request as it is";
    case "require_all_reviews_approved":
      if (standing === 0) return "no review of the change request as it is";
      return approvers.size === standing ? undefined : "a review asks for changes";
    case "require_up_to_date_change_request":
      return changeRequest.base === context.mainRevision
        ? undefined
        : "the main content changed since; update it";
    case "require_change_request_subject":
      return changeRequest.subject.trim() !== "" ? undefined : "it has no subject";
    case "require_author_to_merge":
      return context.mergedBy === changeRequest.createdBy ? undefined : "only its author may merge it";
    case "require_specific_reviewers": {
      const missing = rule.users.filter((id) => !approvers.has(id));
      return missing.length === 0 ? undefined : `no approval yet from ${missing.join(", ")}`;
    }
    case "require_one_of_specific_reviewers":
      return rule.users.some((id) => approvers.has(id))
        ? undefined
        : `no approval from any of ${rule.users.join(", ")}`;
    case "allow_bypass":
      return undefined;
  }
}
