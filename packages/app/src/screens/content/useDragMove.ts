import { type DragEvent, useState } from "react";
import { type ContentItem, canMoveInto } from "../../lib/content-tree.js";
import type { Target } from "./content-actions.js";

/**
 * Native drag and drop of the Content navigation's items: an item dragged onto a collection moves into
 * it, onto the top-level area out of any. The innermost target answers (a collection inside another
 * takes the drop), and one the item cannot go into refuses it. The Move dialog is the keyboard's way.
 */
export function useDragMove(
  collections: readonly ContentItem[],
  onMove: (item: Target, parent: string | undefined) => void,
) {
  const [dragging, setDragging] = useState<Target>();
  /** Where the item would land: a collection's id, or null for the top level. */
  const [over, setOver] = useState<string | null>();
  const end = () => {
    setDragging(undefined);
    setOver(undefined);
  };

  const source = (item: Target) => ({
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

  const target = (collectionId: string | undefined) => ({
    onDragOver: (event: DragEvent) => {
      if (!dragging) return;
      event.stopPropagation();
      if (!canMoveInto(collections, dragging, collectionId)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      setOver(collectionId ?? null);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      event.stopPropagation();
      if (dragging && canMoveInto(collections, dragging, collectionId)) onMove(dragging, collectionId);
      end();
    },
  });

  return { dragging, over, source, target };
}
