import type { Schema } from "@quire/client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useId, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { errorType } from "../../api/errors.js";
import { Dialog } from "../../components/Dialog.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { RoleSelect, roleKey } from "../../components/RoleSelect.js";
import { t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { useChangeRole, useMemberPages, useRemoveMember } from "./members.js";
import { loadedItems } from "./paged.js";

type Member = Schema<"Member">;

/** What went wrong with a change to one member, told above the list (its row may be scrolled away). */
interface Problem {
  name: string;
  error: unknown;
}

/** A row's height before it is measured (one line on a desktop; a phone's rows are measured taller). */
const ROW_ESTIMATE = 56;
/** How close to the last loaded row the next page is asked for. */
const PREFETCH_ROWS = 20;

/**
 * The organization's members: a filter (kept in the URL), and a list that stays smooth however long:
 * pages are read as the person scrolls and only the rows in view are in the page, each with its role
 * (changed at once, undone if the server refuses) and a way to remove the member.
 */
export function MembersTab({ organizationId }: { organizationId: string }) {
  const { organization } = useShell();
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const [typed, setTyped] = useState(search);
  // A filter the address brings (a deep link, the back button) shows in the box...
  const [shown, setShown] = useState(search);
  if (search !== shown) {
    setShown(search);
    setTyped(search);
  }
  // ...and the address (hence the query) follows the box once typing pauses.
  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => setParams(typed ? { q: typed } : {}, { replace: true }), 250);
    return () => clearTimeout(timer);
  }, [typed, search, setParams]);

  const members = useMemberPages(organizationId, search);
  const changeRole = useChangeRole(organizationId);
  const remove = useRemoveMember(organizationId);
  const [problem, setProblem] = useState<Problem>();
  const [removing, setRemoving] = useState<Member>();
  const filterId = useId();

  const setRole = (member: Member, role: Member["role"]) => {
    setProblem(undefined);
    changeRole.mutate(
      { member, role },
      { onError: (error) => setProblem({ name: member.user.displayName, error }) },
    );
  };
  const confirmRemove = () => {
    if (!removing) return;
    const member = removing;
    setProblem(undefined);
    setRemoving(undefined);
    remove.mutate(member, { onError: (error) => setProblem({ name: member.user.displayName, error }) });
  };

  const count = members.data?.pages[0]?.count ?? 0;
  return (
    <section className="people-tab" aria-labelledby={`${filterId}-heading`}>
      <h2 id={`${filterId}-heading`}>{t("people.tab.members")}</h2>
      <div className="people-toolbar">
        <label htmlFor={filterId}>{t("people.members.filter")}</label>
        <input id={filterId} type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
      </div>
      {problem && <ProblemView problem={problem} />}
      {members.isPending && <Loading />}
      {members.isError && <ErrorView error={members.error} />}
      {members.isSuccess && (
        <>
          <p className="people-count" role="status">
            {t("people.members.count", { count })}
          </p>
          {count === 0 ? (
            <p>{search ? t("people.members.noMatch", { search }) : t("people.members.none")}</p>
          ) : (
            <MemberList
              members={loadedItems(members.data)}
              count={count}
              hasMore={members.hasNextPage}
              loadMore={() => {
                if (!members.isFetchingNextPage) void members.fetchNextPage();
              }}
              manage={organization.permissions.admin}
              onRole={setRole}
              onRemove={setRemoving}
            />
          )}
        </>
      )}
      <Dialog
        open={removing !== undefined}
        onClose={() => setRemoving(undefined)}
        title={t("people.members.removeTitle", { name: removing?.user.displayName ?? "" })}
      >
        <p>{t("people.members.removeText")}</p>
        <div className="dialog-actions">
          <button type="button" className="danger" onClick={confirmRemove}>
            {t("people.members.remove")}
          </button>
          <button type="button" onClick={() => setRemoving(undefined)}>
            {t("people.cancel")}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

function ProblemView({ problem }: { problem: Problem }) {
  if (errorType(problem.error) === "last_admin")
    return (
      <p className="error" role="alert">
        {t("people.members.lastAdmin", { name: problem.name })}
      </p>
    );
  return <ErrorView error={problem.error} />;
}

/**
 * The rows of `members` (`count` in all, some not loaded yet) in a scrolling box of its own, only
 * those in view in the page: still a list to a screen reader, each row telling its place in the whole.
 */
function MemberList({
  members,
  count,
  hasMore,
  loadMore,
  manage,
  onRole,
  onRemove,
}: {
  members: Member[];
  count: number;
  hasMore: boolean;
  loadMore: () => void;
  /** The caller may change roles and remove members (an admin); others see the roles only. */
  manage: boolean;
  onRole: (member: Member, role: Member["role"]) => void;
  onRemove: (member: Member) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = hasMore ? members.length + 1 : members.length;
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 8,
  });
  const shown = virtualizer.getVirtualItems();
  const last = shown[shown.length - 1]?.index ?? 0;
  useEffect(() => {
    if (hasMore && last >= members.length - PREFETCH_ROWS) loadMore();
  }, [hasMore, last, members.length, loadMore]);

  return (
    <div ref={scroller} className="member-scroller">
      <ul
        className="member-list"
        aria-label={t("people.tab.members")}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {shown.map((row) => {
          const member = members[row.index];
          return (
            <li
              key={member?.id ?? "more"}
              ref={virtualizer.measureElement}
              data-index={row.index}
              aria-setsize={count}
              aria-posinset={row.index + 1}
              className="member-row"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              {member ? (
                <>
                  <span className="member-who">
                    <span className="member-name">{member.user.displayName}</span>
                    <span className="member-email">{member.user.email}</span>
                  </span>
                  {manage ? (
                    <>
                      <RoleSelect
                        label={t("people.members.roleOf", { name: member.user.displayName })}
                        value={member.role}
                        onChange={(role) => onRole(member, role)}
                        guest
                      />
                      <button
                        type="button"
                        aria-label={t("people.members.removeNamed", { name: member.user.displayName })}
                        onClick={() => onRemove(member)}
                      >
                        {t("people.members.remove")}
                      </button>
                    </>
                  ) : (
                    <span className="member-email">{t(roleKey(member.role))}</span>
                  )}
                </>
              ) : (
                <Loading />
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
