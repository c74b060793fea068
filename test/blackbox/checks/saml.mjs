// SAML providers and the SSO login listing.
import { assert, ids, need, rejects } from './lib.mjs';

// A self-signed X.509 certificate standing for the identity provider's signing key.
const certificate = `-----BEGIN CERTIFICATE-----
MIIDGzCCAgOgAwIBAgIUEM2Xh0ylU6oqhVsPEb0pmsskWywwDQYJKoZIhvcNAQEL
BQAwHDEaMBgGA1UEAwwRYmxhY2tib3gtaWRwLnRlc3QwIBcNMjYxMTIyMDAzMzU5
WhgPMjEyNjEwMjkwMDMzNTlaMBwxGjAYBgNVBAMMEWJsYWNrYm94LWlkcC50ZXN0
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyLmrHKBP+LguwfrXuecC
lLq6O3t+/PePBIS40NEuxXTIEdq2DYRO2c9rih45rnIG+UGvP0tDXtuBBwzddSaC
Z5FrgdUYyL8cqqPlYkIx8xsHyZrzRSAHDpzJwfxLdMNlJ7QgMRGVxrii5WKGwrpk
LKi1JQT/bvvVhgncITRPJhrjoElfuU2AWVlb9WqMqnmoYxsJxleanA9PNNgIqje3
ZWyGX+cuJeLElotMX7eA3Z1x1enCHUoDCRjXyPyB3L1RQdXi5OCtw8kSueIP7Gf6
vZoEygabXPJQr2JBtXM5P5RA6vGyXuC24mxcs8GLiC8A0b6C97tOiDg3Xl8cOmIx
twIDAQABo1MwUTAdBgNVHQ4EFgQU3jOBO7SNhp0c5JQZJUeO6lE5V+swHwYDVR0j
BBgwFoAU3jOBO7SNhp0c5JQZJUeO6lE5V+swDwYDVR0TAQH/BAUwAwEB/zANBgkq
hkiG9w0BAQsFAAOCAQEAZ7sJVc+VGbWcIo3CIF5kI5uDFMrBrhX3K30u9H9KX82j
Ec+CtVphQj39KlH73dfbx2e3RIxeFzYGCqgMeeJdjA02ZTmjH2tTwgvi77sDi+xD
HWTpeRjHPV4WBm6xzArNcCH6BION/hqoqz1tvLi7tjSJVZ4pPNmnfkGbVgTdqO6v
Ljeghsqu9QCLsJNikno3HqftKtBEtpfjP+eeiVXHDN7Oh6cj/IImRPJAWElAOJTS
n2VX6OIwzTILPkaxFkOK6K1rJRCQmKOMvk48WzfhO6W7IAEpDP34mYo3NeDJE3RD
RmKUA4/U69ZQdu0xX+1oDY3t086NJkcM4rlFALYuyQ==
-----END CERTIFICATE-----`;

// pemBody is the certificate's base64 body, so a server that strips the armour still matches.
const pemBody = (pem) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

const provider = {
    label: 'Blackbox IdP',
    entityID: 'https://idp.blackbox.test/metadata',
    ssoURL: 'https://idp.blackbox.test/sso',
    certificate,
    defaultRole: 'read',
};

export default {
    name: 'saml',
    checks: [
        ['POST /orgs/{organizationId}/saml creates a provider (201)', async (t) => {
            const res = await t.admin.orgs.createOrganizationSamlProvider(t.orgId, provider);
            assert.equal(res.status, 201);
            const p = res.data;
            assert.equal(p.object, 'saml-provider');
            assert.equal(p.label, provider.label);
            assert.equal(p.entityID, provider.entityID);
            assert.equal(p.ssoURL, provider.ssoURL);
            assert.equal(p.defaultRole, 'read');
            assert.equal(typeof p.service.acsURL, 'string');
            assert.equal(typeof p.service.startURL, 'string');
            assert.equal(p.urls.location, `${t.url}/v1/orgs/${t.orgId}/saml/${p.id}`);
            t.state.samlId = p.id;
        }],
        ['GET /orgs/{organizationId}/saml lists it and GET by id answers it', async (t) => {
            const samlId = need(t.state.samlId, 'SAML provider');
            const { data: list } = await t.admin.orgs.listSamlProvidersInOrganizationById(t.orgId);
            assert.deepEqual(ids(list), [samlId]);
            const { data } = await t.admin.orgs.getOrganizationSamlProviderById(t.orgId, samlId);
            assert.equal(data.id, samlId);
            assert.equal(pemBody(data.certificate), pemBody(certificate));
        }],
        ['PATCH /orgs/{organizationId}/saml/{id} takes a 30-character label and refuses 31', async (t) => {
            const samlId = need(t.state.samlId, 'SAML provider');
            const thirty = 'L'.repeat(30);
            const { data } = await t.admin.orgs.updateOrganizationSamlProvider(t.orgId, samlId, { label: thirty });
            assert.equal(data.label, thirty);
            const err = await rejects(t.admin.orgs.updateOrganizationSamlProvider(t.orgId, samlId, { label: thirty + 'L' }), 400);
            assert.match(err.errorMessage, /label/);
            const { data: again } = await t.admin.orgs.getOrganizationSamlProviderById(t.orgId, samlId);
            assert.equal(again.label, thirty);
        }],
        ['GET /orgs/{organizationId}/sso lists the provider\'s login', async (t) => {
            const samlId = need(t.state.samlId, 'SAML provider');
            const { data } = await t.admin.orgs.listSsoProviderLoginsInOrganization(t.orgId);
            assert.ok(Array.isArray(data.items));
            const login = data.items.find((x) => x.id === samlId);
            assert.ok(login, `${samlId} not in ${JSON.stringify(data.items)}`);
            assert.equal(login.label, 'L'.repeat(30));
            assert.doesNotThrow(() => new URL(login.startURL), `startURL is not a URL: ${login.startURL}`);
        }],
        ['a member who is not an admin cannot create a provider (403)', async (t) => {
            await rejects(t.user.orgs.createOrganizationSamlProvider(t.orgId, provider), 403);
            const { data } = await t.admin.orgs.listSamlProvidersInOrganizationById(t.orgId);
            assert.equal(data.items.length, 1);
        }],
        ['DELETE /orgs/{organizationId}/saml/{id} answers 204, again when already gone', async (t) => {
            const samlId = need(t.state.samlId, 'SAML provider');
            assert.equal((await t.admin.orgs.deleteOrganizationSamlProvider(t.orgId, samlId)).status, 204);
            await rejects(t.admin.orgs.getOrganizationSamlProviderById(t.orgId, samlId), 404);
            assert.equal((await t.admin.orgs.deleteOrganizationSamlProvider(t.orgId, samlId)).status, 204);
        }],
    ],
};
