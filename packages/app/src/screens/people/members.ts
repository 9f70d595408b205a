import type { Schema } from "@quire/client";
import { type InfiniteData, type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { $api, fetchClient } from "../../api/client.js";
import type { Role } from "../../components/RoleSelect.js";
import { without, withRole } from "./logic.js";
import { isPagedKey, type Page, usePages } from "./paged.js";

type Member = Schema<"Member">;
type MemberPages = InfiniteData<Page<Member>>;

export const MEMBERS = "/v1/orgs/{organizationId}/members";
const MEMBER = "/v1/orgs/{organizationId}/members/{userId}";
/** Pages of a hundred: a long list reads few of them, each quickly. */
const PAGE_SIZE = 100;

/** The organization's members whose name or email matches `search`, a page at a time. */
export function useMemberPages(organizationId: string, search: string) {
  const query = { search: search || undefined, limit: PAGE_SIZE };
  const init = { params: { path: { organizationId }, query } };
  return usePages<Member>($api.queryOptions("get", MEMBERS, init).queryKey, (page, signal) =>
    fetchClient.GET(MEMBERS, { signal, params: { path: { organizationId }, query: { ...query, page } } }),
  );
}

/**
 * Changes every loaded list of members at once (optimistically), and gives back how to undo it: the
 * lists as they were. Only the paged lists (`usePages`) are changed; the others are refreshed after.
 */
function useOptimisticMembers() {
  const queryClient = useQueryClient();
  const filters = {
    queryKey: ["get", MEMBERS],
    predicate: (query: { queryKey: QueryKey }) => isPagedKey(query.queryKey),
  };
  return {
    async change(update: (data: MemberPages) => MemberPages) {
      await queryClient.cancelQueries(filters);
      const before = queryClient.getQueriesData<MemberPages>(filters);
      queryClient.setQueriesData<MemberPages>(filters, (data) => data && update(data));
      return () => {
        for (const [key, data] of before) queryClient.setQueryData(key, data);
      };
    },
    refresh: () => queryClient.invalidateQueries({ queryKey: ["get", MEMBERS] }),
  };
}

/** Sets a member's role, shown at once and undone if the server refuses (the last admin, say). */
export function useChangeRole(organizationId: string) {
  const members = useOptimisticMembers();
  return useMutation<Member, unknown, { member: Member; role: Role | null }, () => void>({
    mutationFn: async ({ member, role }) => {
      const { data, error } = await fetchClient.PATCH(MEMBER, {
        params: { path: { organizationId, userId: member.id } },
        body: { role },
      });
      if (!data) throw error;
      return data;
    },
    onMutate: ({ member, role }) => members.change((data) => withRole(data, member.id, role)),
    onError: (_error, _variables, undo) => undo?.(),
    onSettled: members.refresh,
  });
}

/** Removes a member from the organization, from the lists at once, back if the server refuses. */
export function useRemoveMember(organizationId: string) {
  const members = useOptimisticMembers();
  return useMutation<void, unknown, Member, () => void>({
    mutationFn: async (member) => {
      const { error, response } = await fetchClient.DELETE(MEMBER, {
        params: { path: { organizationId, userId: member.id } },
      });
      if (!response.ok) throw error;
    },
    onMutate: (member) => members.change((data) => without(data, member.id)),
    onError: (_error, _variables, undo) => undo?.(),
    onSettled: members.refresh,
  });
}
