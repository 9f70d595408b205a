import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView } from "../../components/ErrorView.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { type Holder, moveTargets } from "../../lib/content-tree.js";
import { paths } from "../../routes/paths.js";
import { ContentDialog } from "../content/ContentDialog.js";
import { DeleteDialog, MoveDialog, RenameDialog } from "../content/ItemDialogs.js";
import { ItemMenu, type MenuActions } from "../content/ItemMenu.js";
import { useDragMove } from "../content/useDragMove.js";
import type { RowTools } from "../space/PageTree.js";
import { everyPage } from "../space/page-tree.js";
import { type ChangeRequestPath, CONTENT, PAGE, pagesOptions, refreshChangeRequest } from "./queries.js";
import "../content/content.css";

type Page = Schema<"RevisionPage">;
type Change = Schema<"UpdateChangeRequestContentRequest">["changes"][number];
type PageAction = "rename" | "move" | "moveUp" | "moveDown" | "duplicate" | "properties" | "delete";

const LABELS: Record<PageAction, MessageKey> = {
  rename: "content.rename",
  move: "content.move",
  moveUp: "changeRequest.moveUp",
  moveDown: "changeRequest.moveDown",
  duplicate: "changeRequest.duplicate",
  properties: "changeRequest.properties",
  delete: "content.delete",
};

/** Where a page is: its parent (undefined at the top level), its siblings (itself included) and its index. */
interface Place {
  parent: string | undefined;
  siblings: readonly Page[];
  index: number;
}

function placesOf(pages: readonly Page[], parent?: string, into = new Map<string, Place>()) {
  pages.forEach((page, index) => {
    into.set(page.id, { parent, siblings: pages, index });
    placesOf(page.pages ?? [], page.id, into);
  });
  return into;
}

/** What a page offers: every kind moves and goes; only a document has a body to copy and a front matter. */
function actionsOf(page: Page, place: Place | undefined): MenuActions<PageAction> {
  const shown: PageAction[] = ["rename", "move"];
  if (place && place.index > 0) shown.push("moveUp");
  if (place && place.index < place.siblings.length - 1) shown.push("moveDown");
  if (page.type === "document") shown.push("duplicate", "properties");
  shown.push("delete");
  return shown.map((action) => [action, LABELS[action]] as const);
}

/**
 * A writer's tools on a change request's Pages tree: each page's actions menu (rename, move, move up
 * and down, duplicate, properties, delete), their dialogs, and moving a page by dragging it onto
 * another or onto the top-level area. Each is one edit of the change request's content; the tree is
 * read again after it, a refusal told in words. The page shown follows a move, and leaves on a delete.
 */
export function usePageEditing({
  path,
  number,
  pages,
  current,
}: {
  path: ChangeRequestPath;
  number: number;
  pages: readonly Page[];
  current: Page | undefined;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const edit = $api.useMutation("post", CONTENT, { onSettled: () => refreshChangeRequest(queryClient) });
  const [chosen, setChosen] = useState<{ action: PageAction; page: Page }>();
  const [failed, setFailed] = useState<{ title: string; error: unknown }>();
  const places = useMemo(() => placesOf(pages), [pages]);
  // Links hold no pages; documents and groups do.
  const holders = useMemo<Holder[]>(
    () =>
      everyPage(pages)
        .filter((page) => page.type !== "link")
        .map((page) => ({ id: page.id, title: page.title, parent: places.get(page.id)?.parent })),
    [pages, places],
  );
  const menuButtons = useRef(new Map<string, HTMLButtonElement>());
  const focusMenu = (page: Page) => menuButtons.current.get(page.id)?.focus();

  const run = (page: Page, changes: Change[]) => {
    setFailed(undefined);
    edit.mutate(
      { params: { path }, body: { changes } },
      {
        onError: (error) => setFailed({ title: page.title, error }),
        onSuccess: async () => {
          if (!current) return;
          // The page shown moved (its path changed) or went with what was deleted.
          const { pages: now } = await queryClient.fetchQuery(pagesOptions(path));
          const shown = everyPage(now).find((candidate) => candidate.id === current.id);
          if (shown?.path !== current.path)
            navigate(paths.changeRequest(path.spaceId, number, shown?.path ?? ""), { replace: true });
        },
      },
    );
  };
  const move = (page: Page, into: string | undefined, at?: number) =>
    run(page, [
      { operation: "update_page", page: page.id, into: into ?? null, ...(at !== undefined && { at }) },
    ]);
  const duplicate = async (page: Page) => {
    setFailed(undefined);
    try {
      const read = await queryClient.fetchQuery(
        $api.queryOptions("get", PAGE, {
          params: { path: { ...path, pageId: page.id }, query: { format: "markdown" } },
        }),
      );
      const parent = places.get(page.id)?.parent;
      // The copy keeps the body with its front matter (icon, description, hidden), right after the page.
      run(page, [
        {
          type: "insert_page",
          title: t("changeRequest.copyOf", { title: page.title }),
          markdown: read.markdown ?? "",
          ...(parent !== undefined && { parent }),
          position: { after: { type: "page", page: page.id } },
        },
      ]);
    } catch (error) {
      setFailed({ title: page.title, error });
    }
  };
  const choose = (action: PageAction, page: Page) => {
    const at = places.get(page.id)?.index ?? 0;
    if (action === "moveUp" || action === "moveDown") {
      // Among the same siblings: `at` counts them without the page itself.
      run(page, [{ operation: "update_page", page: page.id, at: action === "moveUp" ? at - 1 : at + 1 }]);
      focusMenu(page);
    } else if (action === "duplicate") {
      void duplicate(page);
      focusMenu(page);
    } else setChosen({ action, page });
  };
  const close = () => {
    if (chosen) focusMenu(chosen.page);
    setChosen(undefined);
  };

  const placed = (page: Page) => ({
    kind: "page" as const,
    id: page.id,
    title: page.title,
    parent: places.get(page.id)?.parent,
  });
  const drag = useDragMove(holders, (item, parent) => {
    const page = everyPage(pages).find((candidate) => candidate.id === item.id);
    if (page) move(page, parent);
  });

  const tools = (page: Page): RowTools => ({
    menu: (
      <ItemMenu
        title={page.title}
        actions={actionsOf(page, places.get(page.id))}
        buttonRef={(button) => {
          if (button) menuButtons.current.set(page.id, button);
        }}
        onChoose={(action) => choose(action, page)}
      />
    ),
    drag: { ...drag.source(placed(page)), ...(page.type !== "link" && drag.target(page.id)) },
    dropOver: drag.over === page.id,
  });

  const page = chosen?.page;
  const item = page && placed(page);
  const dialogs = page && item && (
    <>
      {chosen.action === "rename" && (
        <RenameDialog
          item={page}
          onRename={(title) => run(page, [{ type: "update_page", page: page.id, title }])}
          onClose={close}
        />
      )}
      {chosen.action === "move" && (
        <MoveDialog
          item={item}
          targets={moveTargets(holders, item)}
          topLevel={t("changeRequest.topLevel")}
          siblingsIn={(parent) =>
            (parent === undefined
              ? pages
              : (everyPage(pages).find((candidate) => candidate.id === parent)?.pages ?? [])
            ).filter((sibling) => sibling.id !== page.id)
          }
          onMove={(parent, at) => move(page, parent, at)}
          onClose={close}
        />
      )}
      {chosen.action === "properties" && (
        <PropertiesDialog
          page={page}
          onSave={(properties) => run(page, [{ operation: "update_page", page: page.id, ...properties }])}
          onClose={close}
        />
      )}
      {chosen.action === "delete" && (
        <DeleteDialog
          item={page}
          note={t("changeRequest.deleteNote")}
          onDelete={() => run(page, [{ type: "delete_page", page: page.id }])}
          onClose={close}
        />
      )}
    </>
  );

  return {
    tools,
    dialogs,
    /** A refused edit, told in words. */
    failure: failed && (
      <div className="cr-page-failure">
        <p>{t("changeRequest.pageEditFailed", { title: failed.title })}</p>
        <ErrorView error={failed.error} />
      </div>
    ),
    /** The area a page dragged out of its parent is dropped on to go to the top level. */
    topLevel: {
      props: drag.target(undefined),
      over: drag.over === null,
      shown: drag.dragging?.parent !== undefined,
    },
  };
}

/** A page's properties its front matter keeps: icon, description, hidden from the navigation. */
interface Properties {
  icon: string;
  description: string;
  hidden: boolean;
}

/** Asks for a page's icon, description and whether it is hidden; "" removes the icon or the description. */
function PropertiesDialog({
  page,
  onSave,
  onClose,
}: {
  page: Page;
  onSave: (properties: Properties) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [properties, setProperties] = useState<Properties>({
    icon: page.icon ?? "",
    description: page.description ?? "",
    hidden: page.hidden ?? false,
  });
  const set = (changed: Partial<Properties>) => setProperties((was) => ({ ...was, ...changed }));
  return (
    <ContentDialog
      heading={t("changeRequest.propertiesHeading", { title: page.title })}
      submitLabel={t("content.save")}
      onSubmit={() => {
        onSave({ ...properties, icon: properties.icon.trim(), description: properties.description.trim() });
        return true;
      }}
      onClose={onClose}
    >
      <label htmlFor={`${id}-icon`}>{t("changeRequest.icon")}</label>
      <input
        id={`${id}-icon`}
        value={properties.icon}
        aria-describedby={`${id}-icon-hint`}
        onChange={(event) => set({ icon: event.target.value })}
      />
      <p id={`${id}-icon-hint`} className="hint">
        {t("changeRequest.iconHint")}
      </p>
      <label htmlFor={`${id}-description`}>{t("changeRequest.description")}</label>
      <textarea
        id={`${id}-description`}
        value={properties.description}
        onChange={(event) => set({ description: event.target.value })}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={properties.hidden}
          onChange={(event) => set({ hidden: event.target.checked })}
        />
        {t("changeRequest.hidden")}
      </label>
    </ContentDialog>
  );
}
