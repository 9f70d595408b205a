import type { EditorView } from "prosemirror-view";
import { type RefObject, useId, useState } from "react";
import { $api } from "../api/client.js";
import { FormDialog } from "../components/FormDialog.js";
import { t } from "../i18n/index.js";
import { everyPage } from "../screens/space/page-tree.js";
import { schema } from "./model/schema.js";

const PAGES = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages";

type Target = "url" | "page";

/**
 * **Link**: the selected text made a link to an address or to a page of the change request (GitBook's
 * `ref` of kind `url` or `page`, which the server writes as a link to the page's file).
 */
export function LinkDialog({
  view,
  path,
}: {
  view: RefObject<EditorView | null>;
  path: { spaceId: string; changeRequestId: string };
}) {
  const id = useId();
  const [target, setTarget] = useState<Target>("url");
  const [url, setUrl] = useState("");
  const [pageId, setPageId] = useState("");
  const [problem, setProblem] = useState<string>();
  const pages = $api.useQuery("get", PAGES, { params: { path } });
  const documents = everyPage(pages.data?.pages ?? []).filter((page) => page.type === "document");

  return (
    <FormDialog
      label={t("editor.link")}
      submitLabel={t("editor.linkApply")}
      pending={false}
      error={undefined}
      onOpen={() => {
        setUrl("");
        setPageId("");
        setProblem(view.current?.state.selection.empty ? t("editor.linkSelectFirst") : undefined);
      }}
      onSubmit={(close) => {
        const current = view.current;
        if (!current || current.state.selection.empty) return setProblem(t("editor.linkSelectFirst"));
        const ref = target === "url" ? { kind: "url", url: url.trim() } : { kind: "page", page: pageId };
        if ((target === "url" && url.trim() === "") || (target === "page" && pageId === ""))
          return setProblem(t("editor.linkWhere"));
        const { from, to } = current.state.selection;
        const link = schema.marks.link;
        current.dispatch(
          current.state.tr.removeMark(from, to, link).addMark(from, to, link.create({ data: { ref } })),
        );
        close();
        current.focus();
      }}
    >
      <fieldset className="link-target">
        <legend>{t("editor.linkTo")}</legend>
        {(["url", "page"] as const).map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name={`${id}-target`}
              checked={target === kind}
              onChange={() => setTarget(kind)}
            />
            {t(kind === "url" ? "editor.linkAddress" : "editor.linkPage")}
          </label>
        ))}
      </fieldset>
      {target === "url" ? (
        <>
          <label htmlFor={`${id}-url`}>{t("editor.linkAddress")}</label>
          <input id={`${id}-url`} type="url" value={url} onChange={(event) => setUrl(event.target.value)} />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-page`}>{t("editor.linkPage")}</label>
          <select id={`${id}-page`} value={pageId} onChange={(event) => setPageId(event.target.value)}>
            <option value="">{t("editor.linkChoosePage")}</option>
            {documents.map((page) => (
              <option key={page.id} value={page.id}>
                {page.title}
              </option>
            ))}
          </select>
        </>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </FormDialog>
  );
}
