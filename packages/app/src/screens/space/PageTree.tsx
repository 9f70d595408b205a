import type { Schema } from "@quire/client";
import { defaultRangeExtractor, useVirtualizer } from "@tanstack/react-virtual";
import {
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { Link } from "react-router";
import { t } from "../../i18n/index.js";
import { ancestorsOf, type TreeRow, treeKey, visibleRows } from "./page-tree.js";

type Page = Schema<"RevisionPage">;

const ROW_HEIGHT = 32;

/**
 * Some content's pages (a space's, a change request's) as a WAI-ARIA tree named Pages: one tab stop
 * (roving tabindex), arrows, Home, End; Enter follows a page's link (`pageHref`). Its rows are
 * virtualized (5,000 pages stay smooth), the focused row always rendered so the tab stop never
 * disappears. Hovering or focusing a document page runs `prefetch` (its body, ready when opened).
 * Where pages are edited, `tools` gives each row what dragging it and dropping onto it do, and its
 * actions menu: shown at the end of the row hovered, else of the tree's tab stop, outside the tree (a
 * tree holds only its items), so Tab from the tree reaches the focused page's menu.
 */
export function PageTree({
  pages,
  currentPath,
  pageHref,
  prefetch = () => undefined,
  withHidden = false,
  tools,
}: {
  pages: readonly Page[];
  currentPath: string | undefined;
  pageHref(page: Page): string;
  prefetch?(page: Page): void;
  /** Hidden pages shown too (where they are edited). */
  withHidden?: boolean;
  tools?: (page: Page) => RowTools;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  // The page being read shows: the pages above it open.
  useEffect(() => {
    if (currentPath === undefined) return;
    const above = ancestorsOf(pages, currentPath);
    if (above.length > 0) setExpanded((open) => new Set([...open, ...above]));
  }, [pages, currentPath]);
  const rows = useMemo(() => visibleRows(pages, expanded, withHidden), [pages, expanded, withHidden]);
  const currentIndex = rows.findIndex((row) => row.page.path === currentPath);
  // The tab stop, by page (rows move as pages open and close): the last focused, else the current page.
  const [activeId, setActiveId] = useState<string>();
  const focused = rows.findIndex((row) => row.page.id === activeId);
  const activeIndex = focused >= 0 ? focused : Math.max(currentIndex, 0);
  const [hoveredId, setHoveredId] = useState<string>();
  const hovered = rows.findIndex((row) => row.page.id === hoveredId);
  // While focus is in a row's tools (its menu open), they stay on that row, wherever the pointer goes.
  const [pinnedId, setPinnedId] = useState<string>();
  const pinned = rows.findIndex((row) => row.page.id === pinnedId);
  const toolsIndex = pinned >= 0 ? pinned : hovered >= 0 ? hovered : activeIndex;

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    rangeExtractor: useCallback(
      (range: Parameters<typeof defaultRangeExtractor>[0]) => {
        const shown = defaultRangeExtractor(range);
        return [...new Set([...shown, activeIndex, toolsIndex])].sort((a, b) => a - b);
      },
      [activeIndex, toolsIndex],
    ),
  });

  const focusRow = (index: number) => {
    setActiveId(rows[index]?.page.id);
    virtualizer.scrollToIndex(index, { align: "auto" });
    const rowAt = () => scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    // A row in view takes focus at once (the next key goes to it); one scrolled out is rendered on the next frame.
    const shown = rowAt();
    if (shown) shown.focus();
    else requestAnimationFrame(() => rowAt()?.focus());
  };
  const toggle = (id: string, open: boolean) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  const onKeyDown = (event: KeyboardEvent) => {
    const move = treeKey(rows, activeIndex, event.key);
    if (!move) {
      const row = rows[activeIndex];
      // Enter on a group (no link to follow) opens or closes it.
      if (event.key === "Enter" && row?.page.type === "group" && row.expandable)
        toggle(row.page.id, !row.expanded);
      return;
    }
    event.preventDefault();
    if ("focus" in move) focusRow(move.focus);
    else if ("expand" in move) toggle(move.expand, true);
    else toggle(move.collapse, false);
  };
  const prefetchDocument = (page: Page) => {
    if (page.type === "document") prefetch(page);
  };

  if (rows.length === 0) return <p className="space-empty">{t("space.noPages")}</p>;
  const toolsRow = rows[toolsIndex];
  const toolsTop = virtualizer.getVirtualItems().find((item) => item.index === toolsIndex)?.start;
  return (
    <div ref={scroller} className="page-tree-scroller">
      <div role="tree" aria-label={t("space.pages")} className="page-tree" onKeyDown={onKeyDown}>
        <div role="none" className="page-tree-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <TreeItem
                key={row.page.id}
                href={pageHref(row.page)}
                row={row}
                index={item.index}
                top={item.start}
                current={item.index === currentIndex}
                tabStop={item.index === activeIndex}
                onFocus={() => {
                  setActiveId(row.page.id);
                  // The keyboard's row takes the actions menu from the pointer's.
                  setHoveredId(undefined);
                  prefetchDocument(row.page);
                }}
                onHover={() => {
                  prefetchDocument(row.page);
                  setHoveredId(row.page.id);
                }}
                onToggle={() => toggle(row.page.id, !row.expanded)}
                tools={tools?.(row.page)}
              />
            );
          })}
        </div>
      </div>
      {tools && toolsRow && toolsTop !== undefined && (
        // Offset computed by the virtualizer (the CSSOM, which the policy allows).
        // biome-ignore lint/a11y/noStaticElementInteractions: it hears the focus of its button and menu, takes none
        <div
          className="tree-row-tools"
          style={{ transform: `translateY(${toolsTop}px)` }}
          onFocus={() => setPinnedId(toolsRow.page.id)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) setPinnedId(undefined);
          }}
        >
          {tools(toolsRow.page).menu}
        </div>
      )}
    </div>
  );
}

/** A writer's tools on a row: its actions menu, and what dragging it and dropping onto it do. */
export interface RowTools {
  menu: ReactNode;
  drag: HTMLAttributes<HTMLElement>;
  /** A page being dragged would land in this one. */
  dropOver: boolean;
}

/** One row: a link to a document page, a link's target, or a group's heading-like label. */
function TreeItem({
  href,
  row,
  index,
  top,
  current,
  tabStop,
  onFocus,
  onHover,
  onToggle,
  tools,
}: {
  href: string;
  row: TreeRow;
  index: number;
  top: number;
  current: boolean;
  tabStop: boolean;
  onFocus: () => void;
  onHover: () => void;
  onToggle: () => void;
  tools: RowTools | undefined;
}) {
  const { page } = row;
  const tabIndex = tabStop ? 0 : -1;
  const common = {
    "data-index": index,
    "aria-level": row.level,
    "aria-setsize": row.setSize,
    "aria-posinset": row.posInSet,
    "aria-expanded": row.expandable ? row.expanded : undefined,
    ...tools?.drag,
    className: `tree-row tree-${page.type}${tools?.dropOver ? " drop-over" : ""}`,
    // Offsets computed by the virtualizer (the CSSOM, which the policy allows).
    style: { transform: `translateY(${top}px)`, paddingInlineStart: `${row.level - 0.5}rem` },
    onFocus,
    onMouseEnter: onHover,
  };
  const twisty = row.expandable ? (
    // A pointer's way to open and close; the keyboard's are the arrows.
    <span
      className="tree-twisty"
      aria-hidden="true"
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onToggle();
      }}
    >
      {row.expanded ? "▾" : "▸"}
    </span>
  ) : (
    <span className="tree-twisty" aria-hidden="true" />
  );
  if (page.type === "group")
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: Enter and the arrows open it (see the tree's keys)
      <div role="treeitem" tabIndex={tabIndex} {...common} onClick={onToggle}>
        {twisty}
        {page.title}
      </div>
    );
  if (page.type === "link")
    return (
      <a role="treeitem" tabIndex={tabIndex} {...common} href={page.href}>
        {twisty}
        {page.title}
        <span className="tree-external" aria-hidden="true">
          {" ↗"}
        </span>
      </a>
    );
  return (
    <Link
      role="treeitem"
      tabIndex={tabIndex}
      {...common}
      to={href}
      aria-current={current ? "page" : undefined}
    >
      {twisty}
      {page.title}
    </Link>
  );
}
