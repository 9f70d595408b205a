import type { Schema } from "@quire/api-types";
import { changeChangeRequest, type MemberChangeRequest } from "../change-requests/index.js";
import { type ChangeRequestReviewRequestTable, upsertReviewRequests } from "../reviews/index.js";
import type { Services } from "../services.js";

/**
 * Asks `users` (checked before) for a review of the member's change request, and gives it the subject
 * and description the request carries, as GitBook's "request reviewers" dialog does: both in one
 * transaction, so that reviewers are never asked about a subject that was not saved.
 */
export async function requestReviewers(
  services: Services,
  member: MemberChangeRequest,
  callerId: string,
  users: readonly string[],
  body: Pick<Schema<"RequestReviewersRequest">, "subject" | "description">,
): Promise<ChangeRequestReviewRequestTable[]> {
  return services.transaction(async (tx) => {
    const { changeRequest } = await changeChangeRequest(tx, services, member, body, callerId);
    const at = services.now();
    const requests = users.map((userId) => ({
      change_request_id: changeRequest.id,
      user_id: userId,
      requested_by: callerId,
      revision_id: changeRequest.revision_id,
      created_at: at,
    }));
    await upsertReviewRequests(tx, requests);
    return requests;
  });
}
