import { useQuery, useQueryClient } from "@tanstack/react-query";
import { EditorState } from "prosemirror-state";
import { EditorView } from "prosemirror-view";
import { useEffect, useRef, useState } from "react";
import { $api, fetchClient } from "../api/client.js";
import { ErrorView, Loading } from "../components/ErrorView.js";
import { t } from "../i18n/index.js";
import { Autosaver, type SaveState } from "./autosave.js";
import { mergeBlocks } from "./merge.js";
import { fromEditor, toEditor } from "./model/convert.js";
import type { JSONDocument } from "./model/document.js";
import { commands, editorPlugins } from "./plugins.js";
import "../styles/blocks.css";
import "./editor.css";

const PAGE = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}";

interface PageEditorProps {
  spaceId: string;
  changeRequestNumber: number;
  pageId: string;
  editable: boolean;
}

/** The page as the server holds it: its GitBook document, title and ETag (a save's If-Match). */
async function readPage(
  path: { spaceId: string; changeRequestId: string; pageId: string },
  signal?: AbortSignal,
) {
  const { data, error, response } = await fetchClient.GET(PAGE, { signal, params: { path } });
  if (!data) throw error;
  const etag = response.headers.get("etag") ?? "";
  // The contract types `data` fields as never-set; any document it gives is one of the model's.
  const document = ("document" in data ? data.document : undefined) as JSONDocument | undefined;
  return { title: data.title, document: document ?? emptyDocument, etag };
}

/** The editor's read of a page (its own key: it keeps the ETag, which the contract's read does not). */
const pageKey = (path: EditorProps["path"]) => [
  ...$api.queryOptions("get", PAGE, { params: { path } }).queryKey,
  { editor: true },
];

const emptyDocument: JSONDocument = { object: "document", data: {}, nodes: [] };

/**
 * A page of a change request in the block editor: GitBook's document in, GitBook's document out, so
 * the server writes Markdown anew only for the blocks typed into. Saved after each pause in typing and
 * on leaving, with If-Match; the status says whether everything is stored.
 */
export default function PageEditor({ spaceId, changeRequestNumber, pageId, editable }: PageEditorProps) {
  const path = { spaceId, changeRequestId: String(changeRequestNumber), pageId };
  const page = useQuery({
    queryKey: pageKey(path),
    queryFn: ({ signal }) => readPage(path, signal),
    // The editor holds the page from here on: a refetch would not reach it.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
  if (page.isPending) return <Loading />;
  if (page.isError) return <ErrorView error={page.error} />;
  return (
    <Editor
      key={`${pageId} ${page.data.etag}`}
      path={path}
      title={page.data.title}
      document={page.data.document}
      etag={page.data.etag}
      editable={editable}
    />
  );
}

interface EditorProps {
  path: { spaceId: string; changeRequestId: string; pageId: string };
  title: string;
  document: JSONDocument;
  etag: string;
  editable: boolean;
}

function Editor({ path, title, document, etag, editable }: EditorProps) {
  const mount = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const saver = useRef<Autosaver>(null);
  const [state, setState] = useState<SaveState>({ kind: "saved" });
  const queryClient = useQueryClient();

  // biome-ignore lint/correctness/useExhaustiveDependencies: one editor per page as read (its path and ETag are the component's key)
  useEffect(() => {
    if (!mount.current) return;
    const autosaver = new Autosaver(document, etag, {
      async save(sent, ifMatch) {
        const { error, response } = await fetchClient.PATCH(PAGE, {
          params: { path },
          headers: { "If-Match": ifMatch },
          // The contract types documents' `data` as never-set; the model's are GitBook's (document.ts).
          body: { document: { document: sent as never } },
        });
        if (response.status === 412) return { stale: true };
        if (error !== undefined || !response.ok) return { error };
        return { etag: response.headers.get("etag") ?? "" };
      },
      reload: () => readPage(path),
      merge: mergeBlocks,
      current: () => (view.current ? fromEditor(view.current.state.doc) : document),
      replace(merged) {
        const current = view.current;
        if (!current) return;
        current.updateState(EditorState.create({ doc: toEditor(merged), plugins: current.state.plugins }));
      },
      onState: setState,
    });
    saver.current = autosaver;
    const editorView = new EditorView(mount.current, {
      state: EditorState.create({ doc: toEditor(document), plugins: editorPlugins() }),
      editable: () => editable,
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": t("editor.content"),
        class: "editor-surface space-body",
      },
      dispatchTransaction(transaction) {
        editorView.updateState(editorView.state.apply(transaction));
        if (transaction.docChanged) autosaver.changed();
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

  // Closing the tab with what is not stored asks first.
  useEffect(() => {
    if (state.kind === "saved") return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [state.kind]);

  const run = (command: (typeof commands)[keyof typeof commands]) => {
    const current = view.current;
    if (!current) return;
    command(current.state, current.dispatch);
    current.focus();
  };

  return (
    <section className="page-editor" aria-labelledby="editor-title">
      <div className="editor-top">
        <h2 id="editor-title">{title}</h2>
        <SaveStatus
          state={state}
          onKeepMine={() => void saver.current?.keepMine()}
          // Their version: the page read again, in a new editor.
          onTakeTheirs={() => void queryClient.invalidateQueries({ queryKey: pageKey(path) })}
        />
      </div>
      {editable && (
        <div className="editor-toolbar" role="toolbar" aria-label={t("editor.toolbar")}>
          {(
            [
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
            ] as const
          ).map(([name, label]) => (
            <button
              key={name}
              type="button"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(commands[name])}
            >
              {t(label)}
            </button>
          ))}
        </div>
      )}
      <div ref={mount} />
    </section>
  );
}

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
        {state.kind === "failed" && t("editor.failed")}
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
