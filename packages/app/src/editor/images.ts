import type { Node as PMNode } from "prosemirror-model";
import { Plugin } from "prosemirror-state";
import type { EditorView, NodeView } from "prosemirror-view";
import { fetchClient } from "../api/client.js";
import { schema } from "./model/schema.js";

type ChangeRequestPath = { spaceId: string; changeRequestId: string };

const FILES = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/files";
const FILE = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}";

/** What an upload tells while it runs and once done: a file's name, and whether it is on its way, in, or refused. */
export type Upload = { name: string } & (
  | { state: "uploading" }
  | { state: "done" }
  | { state: "failed"; error: unknown }
);

/** Uploads `file` into the change request (the contract's multipart upload); the stored file's id. */
async function upload(path: ChangeRequestPath, file: File): Promise<string> {
  const { data, error } = await fetchClient.POST(FILES, {
    params: { path },
    body: { file: file as unknown as string },
    bodySerializer: () => {
      const form = new FormData();
      form.append("file", file, file.name);
      return form;
    },
  });
  if (!data) throw error;
  return data.id;
}

/** An image block showing the stored file `fileId`, as GitBook's document has one: in an `images`. */
const imageBlock = (fileId: string, alt: string) =>
  schema.nodes.images.create(null, [
    schema.nodes.image.create({ data: { ref: { kind: "file", file: fileId }, alt }, isVoid: true }),
  ]);

/**
 * Uploads each image of `files` and puts it in the page where the caret is (or at `pos`, where it was
 * dropped), one block each, as each arrives; `onUpload` hears how each goes.
 */
export async function insertImages(
  view: EditorView,
  path: ChangeRequestPath,
  files: readonly File[],
  onUpload: (upload: Upload) => void,
  pos?: number,
): Promise<void> {
  for (const file of files.filter((candidate) => candidate.type.startsWith("image/"))) {
    onUpload({ name: file.name, state: "uploading" });
    try {
      const fileId = await upload(path, file);
      const at = pos ?? view.state.selection.to;
      view.dispatch(
        view.state.tr.insert(Math.min(at, view.state.doc.content.size), imageBlock(fileId, file.name)),
      );
      onUpload({ name: file.name, state: "done" });
    } catch (error) {
      onUpload({ name: file.name, state: "failed", error });
    }
  }
}

/** Images pasted or dropped into the page are uploaded and put there. */
export function imageDrops(path: ChangeRequestPath, onUpload: (upload: Upload) => void): Plugin {
  const filesOf = (list: FileList | null | undefined) =>
    [...(list ?? [])].filter((file) => file.type.startsWith("image/"));
  return new Plugin({
    props: {
      handlePaste(view, event) {
        const files = filesOf(event.clipboardData?.files);
        if (files.length === 0) return false;
        void insertImages(view, path, files, onUpload);
        return true;
      },
      handleDrop(view, event) {
        const files = filesOf(event.dataTransfer?.files);
        if (files.length === 0) return false;
        const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        void insertImages(view, path, files, onUpload, pos);
        return true;
      },
    },
  });
}

/** A stored image shown as it is: its download address read once, from the change request's files. */
export function imageView(path: ChangeRequestPath) {
  return (node: PMNode): NodeView => {
    const dom = document.createElement("figure");
    dom.className = "image";
    dom.contentEditable = "false";
    const img = document.createElement("img");
    const data = (node.attrs.data ?? {}) as {
      ref?: { kind?: string; file?: string; url?: string };
      alt?: string;
    };
    img.alt = data.alt ?? "";
    dom.append(img);
    const ref = data.ref;
    if (ref?.kind === "url" && ref.url) img.src = ref.url;
    if (ref?.kind === "file" && ref.file)
      void fetchClient
        .GET(FILE, { params: { path: { ...path, fileId: ref.file } } })
        .then(({ data: file }) => {
          if (file) img.src = file.downloadURL;
        });
    // The caption and such stay in the document as they are; the image itself is not edited here.
    return { dom, ignoreMutation: () => true, stopEvent: () => false };
  };
}
