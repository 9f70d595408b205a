import { useEffect, useRef } from "react";
import { ErrorView } from "../../components/ErrorView.js";
import { type MessageKey, t } from "../../i18n/index.js";
import type { Failure, Target } from "./content-actions.js";

/** What the navigation tells after an action: a deleted space (with Restore), a restored one, or a refusal. */
export type Shown = { deleted: Target } | { restored: Target } | { failure: Failure };

const FAILED: Record<Failure["action"], MessageKey> = {
  rename: "content.renameFailed",
  move: "content.moveFailed",
  delete: "content.deleteFailed",
  restore: "content.restoreFailed",
};

/**
 * The outcome of the last action. The status region is always there (so screen readers hear what
 * enters it); a deleted space offers Restore, which takes focus, until dismissed: no time limit.
 */
export function ContentStatus({
  shown,
  restoring,
  onRestore,
  onDismiss,
}: {
  shown: Shown | undefined;
  restoring: boolean;
  onRestore: (space: Target) => void;
  onDismiss: () => void;
}) {
  const restore = useRef<HTMLButtonElement>(null);
  const deleted = shown && "deleted" in shown ? shown.deleted : undefined;
  useEffect(() => {
    if (deleted) restore.current?.focus();
  }, [deleted]);
  const dismiss = (
    <button type="button" onClick={onDismiss}>
      {t("content.dismiss")}
    </button>
  );
  return (
    <>
      <div role="status" className="content-status">
        {deleted && (
          <>
            <p>{t("content.deleted", { title: deleted.title })}</p>
            <div className="status-actions">
              <button ref={restore} type="button" disabled={restoring} onClick={() => onRestore(deleted)}>
                {t("content.restore")}
              </button>
              {dismiss}
            </div>
          </>
        )}
        {shown && "restored" in shown && <p>{t("content.restored", { title: shown.restored.title })}</p>}
        {shown && "failure" in shown && (
          <p>{t(FAILED[shown.failure.action], { title: shown.failure.title })}</p>
        )}
      </div>
      {shown && "failure" in shown && (
        <div className="content-failure">
          <ErrorView error={shown.failure.error} />
          {dismiss}
        </div>
      )}
    </>
  );
}
