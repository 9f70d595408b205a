import { editChangeRequestContent } from "../change-requests/edits.js";
import { canEditChangeRequests } from "../change-requests/policy.js";
import { changeRequestOf } from "../change-requests/store.js";
import { badRequest } from "../http/errors.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { spaceForMember } from "../spaces/store.js";
import { inspectFile } from "./inspect.js";
import { presentFile } from "./presenter.js";
import { addFile } from "./store.js";

const NAME_MAX = 255;

function fileName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw badRequest("The file part needs a file name.");
  if (name.length > NAME_MAX || /[/\\]/.test(name) || [...name].some((c) => c.charCodeAt(0) < 0x20))
    throw badRequest(`A file name has at most ${NAME_MAX} characters, and no slash or control character.`);
  return name;
}

export function fileHandlers(services: Services): AreaHandlers<"uploadFileInChangeRequest"> {
  const { db, ids, now, urls, secretKey, clock, files } = services;
  return {
    /**
     * One file into an open change request: the form's `file` part carries the bytes, the file name
     * and the media type (`application/octet-stream` lets the bytes decide).
     */
    async uploadFileInChangeRequest({ path, body, caller }) {
      const member = await spaceForMember(db, path.spaceId, caller.user.id, clock.now());
      const changeRequest = await changeRequestOf(db, member.space.id, path.changeRequestId);
      authorize(canEditChangeRequests(member.role), "add files to change requests in this space");
      const { file: upload } = await body();
      const name = fileName(upload.name);
      if (upload.bytes.byteLength === 0) throw badRequest("The file is empty.");
      // Checked and stored before the space is locked, so that a slow store never holds the lock
      // (`addFile` then finds the bytes there already).
      inspectFile(upload.bytes, upload.contentType);
      await files.blobs.put(upload.bytes);
      const file = await db.transaction().execute(async (tx) => {
        const at = now();
        // A revision of its own, at the file's time, so that each revision's `files` stays as it was.
        await editChangeRequestContent(
          tx,
          { ids, now: at },
          {
            spaceId: member.space.id,
            changeRequestId: changeRequest.id,
            userId: caller.user.id,
            changes: [],
          },
        );
        return addFile(tx, files.blobs, {
          spaceId: member.space.id,
          changeRequestId: changeRequest.id,
          name,
          contentType: upload.contentType,
          bytes: upload.bytes,
          now: at,
          id: ids.next(),
        });
      });
      const location = urls.api(
        `spaces/${member.space.id}/change-requests/${changeRequest.id}/content/files/${file.id}`,
      );
      return { status: 201 as const, headers: { location }, body: presentFile(file, urls, secretKey) };
    },
  };
}
