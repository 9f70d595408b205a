/** The answers handlers give, so that 125 handlers do not spell them out. */
export const ok = <Body>(body: Body) => ({ status: 200 as const, body });

/** 201 with the `Location` of what was made. */
export const created = <Body extends { urls: { location: string } }>(body: Body) => ({
  status: 201 as const,
  headers: { location: body.urls.location },
  body,
});

export const noContent = () => ({ status: 204 as const, body: undefined });
