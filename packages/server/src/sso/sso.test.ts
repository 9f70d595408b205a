import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp } from "../testing/harness.js";

/** A self-signed certificate, as an identity provider gives one. */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIDFTCCAf2gAwIBAgIUKz+DsDUf9XiE3RAQb7fEJ+4vk9MwDQYJKoZIhvcNAQEL
BQAwGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMB4XDTI2MTEyNDE5MTUyN1oX
DTM2MTEyMTE5MTUyN1owGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMIIBIjAN
BgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAiquucx3GeFu2Gzd3FUGFlqDPXqLG
JYYmU9U6pNOZuLtnEmiJ+FUYk39Wb5BmyhmKDwK/XAwuno3tTptCHlC3UipGS9Z4
Nj7+MEmpqofReZEcyGA7ve2XTrKts2enwU6ZQGriJJQQz89PmJYhaiIunxJJaY9C
GrMT8X2yq8e8tkTIre/1YUq5GLLoWZDzr5Rdnp2lS3MUlVA9jUKg3qmWNVmciG3R
AZ++SSBZEMy/vJfcyp8W1GpElqsn6jlfV7hoWrgRWfSEamMYZlHPXMBt5LI+D9pg
CfavhKH4SWF6Qq+LykTXgWeSZ5Tj/7AD6CjEhKoVWHSgtnUzYSWp6Ozd1QIDAQAB
o1MwUTAdBgNVHQ4EFgQUG1xRNmamko4qn6YQEHzF3mt5yq8wHwYDVR0jBBgwFoAU
G1xRNmamko4qn6YQEHzF3mt5yq8wDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0B
AQsFAAOCAQEAhEsbPfWKs2mTL4MWnjHH80k4VKkRf0hUDUgckWeMgSMeNKye2zmk
eLdveZ5YdPevaVlbzYcqosWVEeF9K9MGqc11zxf7Qlz+x0WLnfMDM1qs2h902b/A
wLaBBxkIe3NpgIUdx9FnsiVp2+fIMFFjWv/0TvAjFairY1PJluaT7+J5WiwsRq6g
Im292GFLtCJHAlKnwBy/qT2DvnrK6h6+pYy/+eZrF9CRxEl7MF1mg95suMZIniJ/
32S12rk7t24+Nu0kQZW02tCKmGI+dcHTqpXuVxe0U8ruI40MukldcI/Gyuq6fhEY
7/jcr2Q9XvV8KsBtOooWxx3CSSZtJa5g6A==
-----END CERTIFICATE-----`;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function scenario() {
  const s = await buildOrganization(t, { reader: "read", outsider: "outsider" });
  return { ...s, samlUrl: `/v1/orgs/${s.organizationId}/saml` };
}

const complete = {
  entityID: "https://idp.example.com/entity",
  certificate: CERTIFICATE,
  ssoURL: "https://idp.example.com/sso",
};

describe("SAML providers", () => {
  it("creates a pending provider from a label, activates it once complete, serves its metadata", async () => {
    const s = await scenario();
    const res = await t.request.post(s.samlUrl).set(s.admin.auth).send({ label: "Okta" }).expect(201);
    const id = res.body.id as string;
    const base = `http://quire.test/sso/saml/${id}`;
    expect(res.body).toEqual({
      object: "saml-provider",
      id,
      label: "Okta",
      defaultRole: "read",
      createdAt: t.clock.now().toISOString(),
      status: "pending",
      service: { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` },
      urls: { location: `http://quire.test${s.samlUrl}/${id}` },
    });
    expect(res.headers.location).toBe(res.body.urls.location);
    await t.request.get(`/v1/orgs/${s.organizationId}/sso`).set(s.outsider.auth).expect(404);
    const logins = await t.request.get(`/v1/orgs/${s.organizationId}/sso`).set(s.reader.auth).expect(200);
    expect(logins.body).toEqual({ items: [] });

    const team = await t.request
      .put(`/v1/orgs/${s.organizationId}/teams`)
      .set(s.admin.auth)
      .send({ title: "SSO" })
      .expect(201);
    const updated = await t.request
      .patch(`${s.samlUrl}/${id}`)
      .set(s.admin.auth)
      .send({ ...complete, defaultTeam: team.body.id, defaultRole: null })
      .expect(200);
    expect(updated.body).toMatchObject({
      ...complete,
      status: "active",
      defaultRole: null,
      defaultTeam: { id: team.body.id },
    });
    const read = await t.request.get(`${s.samlUrl}/${id}`).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(updated.body);
    const active = await t.request.get(`/v1/orgs/${s.organizationId}/sso`).set(s.reader.auth).expect(200);
    expect(active.body).toEqual({ items: [{ id, label: "Okta", startURL: read.body.service.startURL }] });

    const metadata = await t.request.get(`/sso/saml/${id}/metadata`).expect(200);
    expect(metadata.headers["content-type"]).toMatch(/samlmetadata\+xml/);
    expect(metadata.text).toContain(`entityID="${base}/metadata"`);
    expect(metadata.text).toContain(`Location="${base}/acs"`);
    await t.request.get("/sso/saml/unknown/metadata").expect(404);

    // Deleting the default team clears it; deleting the provider removes it.
    await t.request
      .delete(`/v1/orgs/${s.organizationId}/teams/${team.body.id}`)
      .set(s.admin.auth)
      .expect(204);
    const cleared = await t.request.get(`${s.samlUrl}/${id}`).set(s.admin.auth).expect(200);
    expect(cleared.body.defaultTeam).toBeUndefined();
    await t.request.delete(`${s.samlUrl}/${id}`).set(s.admin.auth).expect(204);
    await t.request.get(`${s.samlUrl}/${id}`).set(s.admin.auth).expect(404);
    const list = await t.request.get(s.samlUrl).set(s.admin.auth).expect(200);
    expect(list.body).toEqual({ count: 0, items: [] });
  });

  it("lists providers oldest first", async () => {
    const s = await scenario();
    const first = await t.request
      .post(s.samlUrl)
      .set(s.admin.auth)
      .send({ label: "One", ...complete })
      .expect(201);
    expect(first.body.status).toBe("active");
    t.clock.advance(1000);
    const second = await t.request.post(s.samlUrl).set(s.admin.auth).send({ label: "Two" }).expect(201);
    const list = await t.request.get(`${s.samlUrl}?limit=1`).set(s.admin.auth).expect(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items[0].id).toBe(first.body.id);
    const next = await t.request
      .get(`${s.samlUrl}?limit=1&page=${list.body.next.page}`)
      .set(s.admin.auth)
      .expect(200);
    expect(next.body.items[0].id).toBe(second.body.id);
  });

  it("answers 400 for a bad certificate or team, 403 and 404", async () => {
    const s = await scenario();
    const other = await scenario();
    await t.request
      .post(s.samlUrl)
      .set(s.admin.auth)
      .send({ label: "Bad", certificate: "not a certificate" })
      .expect(400);
    await t.request
      .post(s.samlUrl)
      .set(s.admin.auth)
      .send({ label: "Bad", defaultTeam: "unknown" })
      .expect(400);
    await t.request.post(s.samlUrl).set(s.admin.auth).send({ label: "" }).expect(400);
    await t.request.post(s.samlUrl).set(s.admin.auth).send({ label: "Bad", ssoURL: "not a url" }).expect(400);
    await t.request.post(s.samlUrl).set(s.reader.auth).send({ label: "Okta" }).expect(403);
    await t.request.get(s.samlUrl).set(s.reader.auth).expect(403);
    await t.request.post(s.samlUrl).set(s.outsider.auth).send({ label: "Okta" }).expect(404);
    const created = await t.request.post(s.samlUrl).set(s.admin.auth).send({ label: "Okta" }).expect(201);
    const url = `${s.samlUrl}/${created.body.id}`;
    await t.request
      .patch(url)
      .set(s.admin.auth)
      .send({ certificate: "-----BEGIN CERTIFICATE-----\nxx\n-----END CERTIFICATE-----" })
      .expect(400);
    await t.request.patch(url).set(s.reader.auth).send({ label: "Mine" }).expect(403);
    await t.request.delete(url).set(s.reader.auth).expect(403);
    await t.request.get(url).set(other.admin.auth).expect(404);
    await t.request.get(`${other.samlUrl}/${created.body.id}`).set(other.admin.auth).expect(404);
    await t.request.get(`/v1/orgs/unknown/sso`).set(s.admin.auth).expect(404);
    const read = await t.request.get(url).set(s.admin.auth).expect(200);
    expect(read.body).toMatchObject({ label: "Okta", status: "pending" });
    const count = await t.request.get(s.samlUrl).set(s.admin.auth).expect(200);
    expect(count.body.count).toBe(1);
  });
});

describe("GET /v1/email-domains/{emailDomain}/orgs", () => {
  it("lists organizations of the caller's own domain, of other domains only their own; none as an empty list", async () => {
    const s = await scenario();
    const other = await scenario();
    await t.request
      .patch(`/v1/orgs/${s.organizationId}`)
      .set(s.admin.auth)
      .send({ emailDomains: ["Example.com", "acme.org"] })
      .expect(200);
    await t.request
      .patch(`/v1/orgs/${other.organizationId}`)
      .set(other.admin.auth)
      .send({ emailDomains: ["sub.acme.org"] })
      .expect(200);
    // Test users have addresses at example.com.
    const own = await t.request
      .get("/v1/email-domains/EXAMPLE.com/orgs")
      .set(other.outsider.auth)
      .expect(200);
    expect(own.body.organizations.map((o: { id: string }) => o.id)).toEqual([s.organizationId]);
    expect(own.body.organizations[0].permissions).toMatchObject({ admin: false, createContent: false });
    // Another domain shows only the caller's own organizations, none here: an empty list.
    for (const [domain, caller] of [
      ["acme.org", other.outsider],
      ["nowhere.example", s.admin],
    ] as const) {
      const none = await t.request.get(`/v1/email-domains/${domain}/orgs`).set(caller.auth).expect(200);
      expect(none.body).toEqual({ organizations: [] });
    }
    const member = await t.request.get("/v1/email-domains/acme.org/orgs").set(s.admin.auth).expect(200);
    expect(member.body.organizations.map((o: { id: string }) => o.id)).toEqual([s.organizationId]);
    expect(member.body.organizations[0].permissions.admin).toBe(true);
  });
});
