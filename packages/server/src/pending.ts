import type { OperationId } from "@quire/api-types";

/**
 * Operations of the contract whose behaviour a later issue implements. Until then they answer
 * 501 with the standard error body; this list is the only place that decides it. Implementing one
 * means moving it from here to its area's handlers (the compiler then checks nothing is missing).
 */
export const pendingOperations = [
  // change-request-comments
  "deleteCommentInChangeRequest",
  "deleteCommentReplyInChangeRequest",
  "getCommentInChangeRequest",
  "getCommentReplyInChangeRequest",
  "listCommentRepliesInChangeRequest",
  "listCommentsInChangeRequest",
  "postCommentInChangeRequest",
  "postCommentReplyInChangeRequest",
  "updateCommentInChangeRequest",
  "updateCommentReplyInChangeRequest",
  // change-request-content
  "getFileInChangeRequestById",
  "getPageInChangeRequestById",
  "getRevisionOfChangeRequestById",
  "importContentInChangeRequest",
  "listChangeRequestFileBacklinks",
  "listFilesInChangeRequestById",
  "listPageLinksInChangeRequest",
  "listPagesInChangeRequest",
  "updateChangeRequestContent",
  // change-requests
  "createChangeRequest",
  "getChangeRequestById",
  "getChangeRequestPDF",
  "listChangeRequestsForSpace",
  "mergeChangeRequest",
  "updateChangeRequest",
  "updateChangeRequestById",
  // custom-fields
  "createOrganizationCustomField",
  "deleteOrganizationCustomField",
  "getOrganizationCustomFieldByName",
  "getSpaceCustomFields",
  "listOrganizationCustomFields",
  "updateOrganizationCustomField",
  "updateSpaceCustomFields",
  // integrations
  "getIntegrationByName",
  "getIntegrationInstallationById",
  "installIntegration",
  "listIntegrationInstallations",
  "listIntegrations",
  "publishIntegration",
  "uninstallIntegration",
  "unpublishIntegration",
  "updateIntegrationInstallation",
  // invites
  "createOrganizationInvite",
  "deleteOrganizationInviteById",
  "getOrganizationInviteLink",
  "inviteUsersToOrganization",
  "joinOrganizationWithInvite",
  "listOrganizationInviteLinks",
  "updateOrganizationInviteById",
  // members
  "getMemberInOrganizationById",
  "listMembersInOrganizationById",
  "listSpacesForOrganizationMember",
  "listTeamsForOrganizationMember",
  "removeMemberFromOrganizationById",
  "setUserAsSSOMemberForOrganization",
  "updateMemberInOrganizationById",
  "updateOrganizationMemberLastSeenAt",
  // openapi
  "createOpenAPISpec",
  "createOrUpdateOpenAPISpecBySlug",
  "deleteOpenAPISpecBySlug",
  "getOpenAPISpecBySlug",
  "listOpenAPISpecs",
  // organizations
  "getOrganizationsForEmailDomain",
  // search
  "searchOrganizationContent",
  // site-section-groups
  "addSectionGroupToSite",
  "addSectionToGroup",
  "deleteSiteSectionGroupById",
  "listSiteSectionGroups",
  "moveSiteSectionGroup",
  "removeSectionFromGroup",
  "updateSiteSectionGroupById",
  // site-sections
  "addSectionToSite",
  "deleteSiteSectionById",
  "listSiteSections",
  "moveSiteSection",
  "updateSiteSectionById",
  // site-spaces
  "addSpaceToSite",
  "deleteSiteSpaceById",
  "listSiteSpaces",
  "moveSiteSpace",
  "updateSiteSpaceById",
  // sites
  "createSite",
  "deleteSiteById",
  "getPublishedContentSite",
  "getSiteAdaptiveSchema",
  "getSiteById",
  "listSites",
  "updateSiteAdaptiveSchema",
  "updateSiteById",
  // space-comments
  "deleteCommentInSpace",
  "deleteCommentReplyInSpace",
  "getCommentInSpace",
  "getCommentReplyInSpace",
  "listCommentRepliesInSpace",
  "listCommentsInSpace",
  "postCommentInSpace",
  "postCommentReplyInSpace",
  "updateCommentInSpace",
  "updateCommentReplyInSpace",
  // space-content
  "getCurrentRevision",
  "getFileById",
  "getPageById",
  "getRevisionById",
  "listFiles",
  "listPages",
  // spaces
  "listSpaceLinks",
  // sso
  "createOrganizationSAMLProvider",
  "deleteOrganizationSAMLProvider",
  "getOrganizationSAMLProviderById",
  "listSAMLProvidersInOrganizationById",
  "listSSOProviderLoginsInOrganization",
  "updateOrganizationSAMLProvider",
  // teams
  "addMemberToOrganizationTeamById",
  "createOrganizationTeam",
  "deleteMemberFromOrganizationTeamById",
  "getTeamInOrganizationById",
  "listTeamMembersInOrganizationById",
  "listTeamsInOrganizationById",
  "removeTeamFromOrganizationById",
  "updateTeamInOrganizationById",
  // translations
  "createTranslation",
  "deleteTranslation",
  "getTranslation",
  "listTranslations",
  "updateTranslation",
] as const satisfies readonly OperationId[];

export type PendingOperation = (typeof pendingOperations)[number];
