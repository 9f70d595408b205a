import { useRef, useState } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { useCollections, useSpaces } from "../api/pages.js";
import { ErrorView, Loading } from "../components/ErrorView.js";
import { t } from "../i18n/index.js";
import { type ContentItem, type ContentNode, contentTree, moveTargets } from "../lib/content-tree.js";
import { paths } from "../routes/paths.js";
import { ContentStatus, type Shown } from "../screens/content/ContentStatus.js";
import { type Target, useContentActions } from "../screens/content/content-actions.js";
import { DeleteDialog, MoveDialog, RenameDialog } from "../screens/content/ItemDialogs.js";
import { type Action, CONTENT_ACTIONS, ItemMenu } from "../screens/content/ItemMenu.js";
import { useDragMove } from "../screens/content/useDragMove.js";
import "../screens/content/content.css";

/** The navigation's item for a collection or space of the API, linking to `href(id)`. */
const toContentItem =
  (href: (id: string) => string) =>
  (listed: { id: string; title: string; parent?: string; permissions: { admin: boolean } }): ContentItem => ({
    id: listed.id,
    title: listed.title,
    parent: listed.parent,
    href: href(listed.id),
    manageable: listed.permissions.admin,
  });

/**
 * The organization's collections and spaces, as links to them, nested as they are; each with its
 * actions (rename, move, delete) behind a menu button, and dragged onto a collection to move it there.
 */
export function ContentNav({ organizationId }: { organizationId: string }) {
  const collections = useCollections(organizationId);
  const spaces = useSpaces(organizationId);
  const failed = collections.error ?? spaces.error;
  const collectionItems = collections.data?.map(toContentItem(paths.collection));
  const tree =
    collectionItems && spaces.data
      ? contentTree(collectionItems, spaces.data.map(toContentItem((id) => paths.space(id))))
      : undefined;

  const [chosen, setChosen] = useState<{ action: Action; item: Target }>();
  const [shown, setShown] = useState<Shown>();
  const location = useLocation();
  const navigate = useNavigate();
  // Focus goes back to an item's menu button once it is shown: after a dialog, and again if the item
  // is shown anew (a move puts it in another list, a restore brings it back), until another action.
  const heading = useRef<HTMLHeadingElement>(null);
  const menuButtons = useRef(new Map<string, HTMLButtonElement>());
  const focusWanted = useRef<string>(undefined);
  const removed = useRef(new Set<string>());
  const actions = useContentActions({
    onFailure: (failure) => {
      // A refused delete brings the item back: focus may go to it again.
      removed.current.delete(failure.id);
      setShown({ failure });
    },
    onDeleted: (space) => setShown({ deleted: space }),
  });

  const focusItem = (id: string) => {
    const button = menuButtons.current.get(id);
    // Until it is shown again (or if it is gone), focus stays in the navigation, not on the page.
    if (button?.isConnected) button.focus();
    else heading.current?.focus();
    focusWanted.current = removed.current.has(id) ? undefined : id;
  };
  const menuButton = (id: string) => (button: HTMLButtonElement | null) => {
    if (!button) return;
    menuButtons.current.set(id, button);
    // Only focus lost (on the page) or parked (on the heading) is brought back: never taken from elsewhere.
    const lost = document.activeElement === document.body || document.activeElement === heading.current;
    if (focusWanted.current === id && lost) button.focus();
  };

  const remove = (target: Target) => {
    actions.remove(target);
    removed.current.add(target.id);
    heading.current?.focus();
    const href = target.kind === "space" ? paths.space(target.id) : paths.collection(target.id);
    // The deleted item's own screen would show nothing: go to the organization's home.
    if (location.pathname === href || location.pathname.startsWith(`${href}/`))
      navigate(paths.organization(organizationId));
  };
  const choose = (action: Action, target: Target) => {
    setShown(undefined);
    focusWanted.current = undefined;
    // A space can be restored: it goes at once, with Restore on offer; a collection is asked about first.
    if (action === "delete" && target.kind === "space") remove(target);
    else setChosen({ action, item: target });
  };
  const closeDialog = () => {
    if (chosen) focusItem(chosen.item.id);
    setChosen(undefined);
  };
  const drag = useDragMove<Target>(collectionItems ?? [], (target, parent) => {
    setShown(undefined);
    focusWanted.current = undefined;
    actions.move(target, parent);
  });

  // A function, not a component: a component defined here would be new on every render, and remount.
  const list = (nodes: readonly ContentNode[]) => {
    if (nodes.length === 0) return null;
    return (
      <ul>
        {nodes.map(({ kind, item: node, children }) => {
          const target: Target = { kind, id: node.id, title: node.title, parent: node.parent };
          return (
            <li
              key={node.id}
              className={drag.over === node.id ? `${kind} drop-over` : kind}
              {...(node.manageable && drag.source(target))}
              {...(kind === "collection" && drag.target(node.id))}
            >
              <div className="content-row">
                <NavLink to={node.href}>{node.title}</NavLink>
                {node.manageable && (
                  <ItemMenu
                    title={node.title}
                    actions={CONTENT_ACTIONS}
                    buttonRef={menuButton(node.id)}
                    onChoose={(action) => choose(action, target)}
                  />
                )}
              </div>
              {list(children)}
            </li>
          );
        })}
      </ul>
    );
  };

  return (
    <nav className="content-nav" aria-label={t("nav.content")}>
      <h2 className="nav-title" ref={heading} tabIndex={-1}>
        {t("nav.content")}
      </h2>
      <ContentStatus
        shown={shown}
        restoring={actions.restoring}
        onRestore={(space) =>
          actions.restore(space, () => {
            removed.current.delete(space.id);
            setShown({ restored: space });
            focusItem(space.id);
          })
        }
        onDismiss={() => {
          setShown(undefined);
          heading.current?.focus();
        }}
      />
      {failed ? (
        <ErrorView error={failed} />
      ) : tree ? (
        <div
          className={drag.over === null ? "content-tree drop-over" : "content-tree"}
          {...drag.target(undefined)}
        >
          {list(tree)}
          {drag.dragging?.parent !== undefined && <p className="top-drop">{t("content.dropTopLevel")}</p>}
        </div>
      ) : (
        <Loading />
      )}
      {tree?.length === 0 && <p>{t("nav.empty")}</p>}
      <p className="trash-link">
        <NavLink to={paths.deletedSpaces(organizationId)}>{t("nav.deletedSpaces")}</NavLink>
      </p>
      {chosen?.action === "rename" && (
        <RenameDialog
          item={chosen.item}
          onRename={(title) => actions.rename(chosen.item, title)}
          onClose={closeDialog}
        />
      )}
      {chosen?.action === "move" && (
        <MoveDialog
          item={chosen.item}
          targets={moveTargets(collectionItems ?? [], chosen.item)}
          onMove={(parent) => actions.move(chosen.item, parent)}
          onClose={closeDialog}
        />
      )}
      {chosen?.action === "delete" && (
        <DeleteDialog
          item={chosen.item}
          note={t("content.deleteCollectionNote")}
          onDelete={() => remove(chosen.item)}
          onClose={closeDialog}
        />
      )}
    </nav>
  );
}
