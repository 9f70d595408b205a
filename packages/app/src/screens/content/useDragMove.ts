import { type DragEvent, useState } from "react";
import { canMoveInto, type Holder, type Placed } from "../../lib/content-tree.js";

/**
 * Native drag and drop of items that hold others (the Content navigation's collections, a change
 * request's pages): an item dragged onto one of `holders` moves into it, onto the top-level area out of
 * any. The innermost target answers (a collection inside another takes the drop), and one the item
 * cannot go into refuses it. The Move dialog is the keyboard's way.
 */
export function useDragMove<T extends Placed & { title: string }>(
  holders: readonly Holder[],
  onMove: (item: T, parent: string | undefined) => void,
) {
  const [dragging, setDragging] = useState<T>();
  /** Where the item would land: a holder's id, or null for the top level. */
  const [over, setOver] = useState<string | null>();
  const end = () => {
    setDragging(undefined);
    setOver(undefined);
  };

  const source = (item: T) => ({
    draggable: true,
    onDragStart: (event: DragEvent) => {
      event.stopPropagation();
      event.dataTransfer.effectAllowed = "move";
      // Some browsers start no drag without data; the title is what another application would get.
      event.dataTransfer.setData("text/plain", item.title);
      setDragging(item);
    },
    onDragEnd: end,
  });

  const target = (holderId: string | undefined) => ({
    onDragOver: (event: DragEvent) => {
      if (!dragging) return;
      event.stopPropagation();
      if (!canMoveInto(holders, dragging, holderId)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      setOver(holderId ?? null);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      event.stopPropagation();
      if (dragging && canMoveInto(holders, dragging, holderId)) onMove(dragging, holderId);
      end();
    },
  });

  return { dragging, over, source, target };
}
