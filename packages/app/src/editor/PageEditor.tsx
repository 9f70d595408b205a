import type { JSONDocument } from "@quire/client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { EditorState } from "prosemirror-state";
import { EditorView } from "prosemirror-view";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { $api, fetchClient } from "../api/client.js";
import { ErrorView, Loading } from "../components/ErrorView.js";
import { t } from "../i18n/index.js";
import { Autosaver, type SaveOutcome, type SaveState } from "./autosave.js";
import { imageDrops, imageView, insertImages, type Upload } from "./images.js";
import { LinkDialog } from "./LinkDialog.js";
import { mergeBlocks } from "./merge.js";
import { fromEditor, toEditor } from "./model/convert.js";
import { commands, editorPlugins } from "./plugins.js";
import { insertChosen, type SlashState, slashKey, slashMenu } from "./slash.js";
import "../styles/blocks.css";
import "./editor.css";

const PAGE = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}";

type PagePath = { spaceId: string; changeRequestId: string; pageId: string };

interface PageEditorProps {
  spaceId: string;
  changeRequestNumber: number;
  pageId: string;
  editable: boolean;
}

/** The page as a read without parameters shows it: its title, GitBook document and ETag (a save's If-Match). */
async function readPage(path: PagePath, signal?: AbortSignal) {
  const { data, error, response } = await fetchClient.GET(PAGE, { signal, params: { path } });
  if (!data) throw error;
  // The contract types a document's `data` fields as never set; any document it gives is the model's.
  const document = ("document" in data ? data.document : undefined) as JSONDocument | undefined;
  return { title: data.title, document: document ?? emptyDocument, etag: response.headers.get("etag") ?? "" };
}

/** The page's body as Markdown, with the ETag a save names (the read without parameters'). */
async function readMarkdown(path: PagePath, signal?: AbortSignal) {
  const [page, source] = await Promise.all([
    readPage(path, signal),
    fetchClient.GET(PAGE, { signal, params: { path, query: { format: "markdown" } } }),
  ]);
  if (!source.data) throw source.error;
  const markdown = "markdown" in source.data ? (source.data.markdown ?? "") : "";
  return { title: page.title, markdown, etag: page.etag };
}

/** Stores `body` (a document or Markdown) as the page's, if it is still as `etag` tagged it. */
async function savePage(
  path: PagePath,
  body: { document: JSONDocument } | { markdown: string },
  etag: string,
): Promise<SaveOutcome> {
  const { error, response } = await fetchClient.PATCH(PAGE, {
    params: { path },
    headers: { "If-Match": etag },
    // The contract types a document's `data` fields as never set; the model's are GitBook's (document.ts).
    body: { document: body as never },
  });
  if (response.status === 412) return { stale: true };
  // A refusal for what was sent (too large, not a document) stays one: retried on the next change only.
  const final =
    response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
  if (error !== undefined || !response.ok) return { error, final };
  return { etag: response.headers.get("etag") ?? "" };
}

/** CodeMirror comes only with the first switch to the source. */
const MarkdownSource = lazy(() => import("./MarkdownSource.js"));

const emptyDocument: JSONDocument = { object: "document", data: {}, nodes: [] };

/** The editor's reads of a page (keys of their own: they keep the ETag, which the contract's read does not). */
const pageKey = (path: PagePath, mode: Mode) => [
  ...$api.queryOptions("get", PAGE, { params: { path } }).queryKey,
  { editor: mode },
];

type Mode = "blocks" | "markdown";

/**
 * A page of a change request in the block editor, or as its Markdown source (**Markdown** switches):
 * GitBook's document in, GitBook's document out, so the server writes Markdown anew only for the blocks
 * typed into; the source saves the body as typed. Saved after each pause and on leaving, with
 * If-Match; the status says whether everything is stored.
 */
export default function PageEditor({ spaceId, changeRequestNumber, pageId, editable }: PageEditorProps) {
  const path = { spaceId, changeRequestId: String(changeRequestNumber), pageId };
  const [mode, setMode] = useState<Mode>("blocks");
  const [state, setState] = useState<SaveState>({ kind: "saved" });
  const saver = useRef<Autosaver<unknown>>(null);
  const queryClient = useQueryClient();
  const read = {
    // The editor holds the page from here on: a refetch would not reach it; a new visit reads anew.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    gcTime: 0,
  };
  const blocks = useQuery({
    queryKey: pageKey(path, "blocks"),
    queryFn: ({ signal }) => readPage(path, signal),
    enabled: mode === "blocks",
    ...read,
  });
  const source = useQuery({
    queryKey: pageKey(path, "markdown"),
    queryFn: ({ signal }) => readMarkdown(path, signal),
    enabled: mode === "markdown",
    ...read,
  });
  const shown = mode === "blocks" ? blocks : source;
  const onSaver = (autosaver: Autosaver<unknown>) => {
    saver.current = autosaver;
    setState(autosaver.state);
  };

  // Switching saves what waits first: the other view reads the page as stored.
  const switchTo = async (next: Mode) => {
    await saver.current?.flush();
    setMode(next);
  };

  return (
    <section className="page-editor" aria-labelledby="editor-title">
      <div className="editor-top">
        <h2 id="editor-title">{shown.data?.title ?? ""}</h2>
        <button
          type="button"
          aria-pressed={mode === "markdown"}
          onClick={() => void switchTo(mode === "blocks" ? "markdown" : "blocks")}
        >
          {t("editor.markdown")}
        </button>
        <SaveStatus
          state={state}
          onKeepMine={() => void saver.current?.keepMine()}
          // Their version: the page read again, in a new editor.
          onTakeTheirs={() => void queryClient.invalidateQueries({ queryKey: pageKey(path, mode) })}
        />
      </div>
      {shown.isPending && <Loading />}
      {shown.isError && <ErrorView error={shown.error} />}
      {mode === "blocks" && blocks.data && (
        <BlockEditor
          key={`${pageId} ${blocks.data.etag}`}
          path={path}
          document={blocks.data.document}
          etag={blocks.data.etag}
          editable={editable}
          onState={setState}
          onSaver={onSaver}
        />
      )}
      {mode === "markdown" && source.data && (
        <Suspense fallback={<Loading />}>
          <MarkdownSource
            key={`${pageId} ${source.data.etag}`}
            markdown={source.data.markdown}
            etag={source.data.etag}
            editable={editable}
            save={(markdown, etag) => savePage(path, { markdown }, etag)}
            reload={async () => {
              const latest = await readMarkdown(path);
              return { body: latest.markdown, etag: latest.etag };
            }}
            onState={setState}
            onSaver={onSaver}
          />
        </Suspense>
      )}
    </section>
  );
}

interface BlockEditorProps {
  path: PagePath;
  document: JSONDocument;
  etag: string;
  editable: boolean;
  onState(state: SaveState): void;
  onSaver(saver: Autosaver<JSONDocument>): void;
}

function BlockEditor({ path, document, etag, editable, onState, onSaver }: BlockEditorProps) {
  const mount = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const menuId = useId();
  const picker = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  // Each upload's latest news, by file name, in the order they began.
  const onUpload = (news: Upload) =>
    setUploads((all) => [...all.filter((upload) => upload.name !== news.name), news]);
  const [slash, setSlash] = useState<SlashState & { top?: number; left?: number }>({ open: false });

  // biome-ignore lint/correctness/useExhaustiveDependencies: one editor per page as read (its path and ETag are the component's key)
  useEffect(() => {
    if (!mount.current) return;
    const autosaver = new Autosaver<JSONDocument>(document, etag, {
      save: (sent, ifMatch) => savePage(path, { document: sent }, ifMatch),
      reload: async () => {
        const latest = await readPage(path);
        return { body: latest.document, etag: latest.etag };
      },
      merge: mergeBlocks,
      current: () => (view.current ? fromEditor(view.current.state.doc) : document),
      replace(merged) {
        const current = view.current;
        if (!current) return;
        current.updateState(EditorState.create({ doc: toEditor(merged), plugins: current.state.plugins }));
      },
      onState,
    });
    onSaver(autosaver);
    // The slash menu first: its keys (Enter, arrows, Escape) come before the editor's while it is open.
    const plugins = [slashMenu((item) => t(item.label)), ...editorPlugins(), imageDrops(path, onUpload)];
    const editorView = new EditorView(mount.current, {
      state: EditorState.create({ doc: toEditor(document), plugins }),
      editable: () => editable,
      nodeViews: { image: imageView(path) },
      attributes: (state) => {
        const menu = slashKey.getState(state);
        const chosen = menu?.open ? menu.items[menu.index] : undefined;
        return {
          role: "textbox",
          "aria-multiline": "true",
          "aria-label": t("editor.content"),
          class: "editor-surface space-body",
          ...(chosen && { "aria-controls": menuId, "aria-activedescendant": `${menuId}-${chosen.id}` }),
        };
      },
      dispatchTransaction(transaction) {
        editorView.updateState(editorView.state.apply(transaction));
        if (transaction.docChanged) autosaver.changed();
        const menu = slashKey.getState(editorView.state) ?? { open: false };
        // Closed it stays closed without a render: typing re-renders nothing here.
        if (!menu.open) return setSlash((shown) => (shown.open ? menu : shown));
        // The menu opens under the caret, within the editor's box.
        const box = mount.current?.getBoundingClientRect();
        const caret = box && editorView.coordsAtPos(editorView.state.selection.from);
        setSlash(caret && box ? { ...menu, top: caret.bottom - box.top, left: caret.left - box.left } : menu);
      },
    });
    view.current = editorView;
    return () => {
      // Leaving the page saves what waits, then lets the editor go.
      void autosaver.flush().finally(() => autosaver.stop());
      editorView.destroy();
      view.current = null;
    };
  }, [document, etag, editable]);

  const run = (command: (typeof commands)[keyof typeof commands]) => {
    const current = view.current;
    if (!current) return;
    command(current.state, current.dispatch);
    current.focus();
  };

  return (
    <>
      {editable && (
        <div className="editor-toolbar" role="toolbar" aria-label={t("editor.toolbar")}>
          {TOOLS.map(([name, label]) => (
            <button
              key={name}
              type="button"
              // The selection stays in the page while the button is pressed.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(commands[name])}
            >
              {t(label)}
            </button>
          ))}
          <LinkDialog view={view} path={path} />
          <button type="button" onClick={() => picker.current?.click()}>
            {t("editor.addImage")}
          </button>
          <input
            ref={picker}
            type="file"
            accept="image/*"
            multiple
            hidden
            aria-label={t("editor.addImage")}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              if (view.current) void insertImages(view.current, path, files, onUpload);
            }}
          />
        </div>
      )}
      <div role="status" className="uploads">
        {uploads.map((upload) => (
          <p key={upload.name}>
            {upload.state === "uploading" && t("editor.uploading", { name: upload.name })}
            {upload.state === "done" && t("editor.uploaded", { name: upload.name })}
            {upload.state === "failed" && t("editor.uploadFailed", { name: upload.name })}
          </p>
        ))}
      </div>
      {uploads.map((upload) =>
        upload.state === "failed" ? <ErrorView key={upload.name} error={upload.error} /> : null,
      )}
      <div className="editor-body">
        <div ref={mount} />
        {slash.open && (
          <div
            id={menuId}
            role="listbox"
            aria-label={t("editor.insert")}
            className="slash-menu"
            style={{ top: slash.top, left: slash.left }}
          >
            {slash.items.map((item, index) => (
              <div
                key={item.id}
                id={`${menuId}-${item.id}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === slash.index}
                // A click chooses without taking the caret out of the page.
                onMouseDown={(event) => {
                  event.preventDefault();
                  const current = view.current;
                  if (current) current.dispatch(insertChosen(current.state, { ...slash, index }));
                }}
              >
                {t(item.label)}
              </div>
            ))}
          </div>
        )}
      </div>
    </>
  );
}

const TOOLS = [
  ["bold", "editor.bold"],
  ["italic", "editor.italic"],
  ["strikethrough", "editor.strikethrough"],
  ["code", "editor.code"],
  ["heading1", "editor.heading1"],
  ["heading2", "editor.heading2"],
  ["heading3", "editor.heading3"],
  ["paragraph", "editor.paragraph"],
  ["bulletList", "editor.bulletList"],
  ["orderedList", "editor.orderedList"],
  ["quote", "editor.quote"],
  ["hint", "editor.hint"],
] as const;

/** Whether everything is stored, said in the status region; a conflict offers both ways out. */
function SaveStatus({
  state,
  onKeepMine,
  onTakeTheirs,
}: {
  state: SaveState;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  return (
    <div className="save-state">
      <p role="status">
        {state.kind === "saved" && t("editor.saved")}
        {state.kind === "pending" && t("editor.pending")}
        {state.kind === "saving" && t("editor.saving")}
        {state.kind === "conflict" && t("editor.conflict")}
        {state.kind === "failed" && t(state.final ? "editor.refused" : "editor.failed")}
      </p>
      {state.kind === "failed" && <ErrorView error={state.error} />}
      {state.kind === "conflict" && (
        <div className="row-actions">
          <button type="button" onClick={onKeepMine}>
            {t("editor.keepMine")}
          </button>
          <button type="button" onClick={onTakeTheirs}>
            {t("editor.takeTheirs")}
          </button>
        </div>
      )}
    </div>
  );
}
