import type { AccessMap, AreaHandlers } from "../area.js";
import { canEditChangeRequests, onChangeRequest } from "../change-requests/index.js";
import { addToChangeRequest } from "../commands/add-to-change-request.js";
import { badRequest } from "../http/errors.js";
import type { Services } from "../services.js";
import { inspectFile } from "./inspect.js";
import { presentFile } from "./presenter.js";

const NAME_MAX = 255;

function fileName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw badRequest("The file part needs a file name.");
  if (name.length > NAME_MAX || /[/\\]/.test(name) || [...name].some((c) => c.charCodeAt(0) < 0x20))
    throw badRequest(`A file name has at most ${NAME_MAX} characters, and no slash or control character.`);
  return name;
}

export const fileAccess = {
  uploadFileInChangeRequest: onChangeRequest("add files to change requests in this space", ({ role }) =>
    canEditChangeRequests(role),
  ),
} satisfies AccessMap;

export function fileHandlers(services: Services): AreaHandlers<typeof fileAccess> {
  const { ids, now, urls, secretKey, files, transaction } = services;
  return {
    /**
     * One file into an open change request: the form's `file` part carries the bytes, the file name
     * and the media type (`application/octet-stream` lets the bytes decide).
     */
    async uploadFileInChangeRequest({ body, caller }, { space, changeRequest }) {
      const { file: upload } = await body();
      const name = fileName(upload.name);
      if (upload.bytes.byteLength === 0) throw badRequest("The file is empty.");
      // Checked and stored before the space is locked, so that a slow store never holds the lock
      // (`addFile` then finds the bytes there already).
      inspectFile(upload.bytes, upload.contentType);
      await files.blobs.put(upload.bytes);
      const {
        files: [file],
      } = await transaction((tx) =>
        addToChangeRequest(
          tx,
          { ids, now: now(), blobs: files.blobs },
          {
            spaceId: space.id,
            changeRequestId: changeRequest.id,
            userId: caller.user.id,
            files: [{ id: ids.next(), name, contentType: upload.contentType, bytes: upload.bytes }],
          },
        ),
      );
      if (!file) throw new Error("the upload added no file");
      const location = urls.api(
        `spaces/${space.id}/change-requests/${changeRequest.id}/content/files/${file.id}`,
      );
      return { status: 201 as const, headers: { location }, body: presentFile(file, urls, secretKey) };
    },
  };
}
