import type { EventData } from "../events/record.js";
import type { ChangeRequestTable } from "./tables.js";

/** What every event about a change request says of it. */
export function changeRequestEventData(
  changeRequest: ChangeRequestTable,
): EventData<"change_request_created"> {
  return {
    space: changeRequest.space_id,
    changeRequest: changeRequest.id,
    number: changeRequest.number,
    subject: changeRequest.subject,
    status: changeRequest.status,
  };
}
