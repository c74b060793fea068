// GET /orgs, GET and PATCH /orgs/{organizationId}.
import { assert, ids, rejects } from './lib.mjs';

export default {
    name: 'orgs',
    checks: [
        ['GET /orgs lists the caller\'s organizations', async (t) => {
            const { data } = await t.admin.orgs.listOrganizationsForAuthenticatedUser();
            assert.ok(ids(data).includes(t.orgId), `${t.orgId} not in ${ids(data)}`);
            for (const o of data.items) assert.equal(o.object, 'organization');
            // The first start made an organization of its own for the administrator.
            t.state.otherOrgId = ids(data).find((id) => id !== t.orgId);

            const { data: none } = await t.user.orgs.listOrganizationsForAuthenticatedUser();
            assert.deepEqual(ids(none), []);
        }],
        ['GET /orgs pages with limit and next.page', async (t) => {
            const { data: first } = await t.admin.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 });
            assert.equal(first.items.length, 1);
            assert.equal(typeof first.next?.page, 'string', 'no next.page with more organizations left');
            const { data: second } = await t.admin.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page: first.next.page });
            assert.equal(second.items.length, 1);
            assert.notEqual(second.items[0].id, first.items[0].id);
        }],
        ['GET /orgs/{organizationId} answers the organization', async (t) => {
            const { data } = await t.admin.orgs.getOrganizationById(t.orgId);
            assert.equal(data.object, 'organization');
            assert.equal(data.id, t.orgId);
            assert.equal(data.title, t.orgTitle);
            assert.deepEqual(data.emailDomains, []);
            assert.equal(data.urls.location, `${t.url}/v1/orgs/${t.orgId}`);
            assert.equal(data.permissions.admin, true);
        }],
        ['PATCH /orgs/{organizationId} changes title and email domains', async (t) => {
            const domain = t.userEmail.split('@')[1];
            const { data } = await t.admin.orgs.updateOrganizationById(t.orgId, { title: 'Blackbox Docs', emailDomains: [domain] });
            assert.equal(data.title, 'Blackbox Docs');
            assert.deepEqual(data.emailDomains, [domain]);
            const { data: again } = await t.admin.orgs.getOrganizationById(t.orgId);
            assert.equal(again.title, 'Blackbox Docs');
            assert.deepEqual(again.emailDomains, [domain]);
        }],
        ['PATCH /orgs/{organizationId} rejects a one-character title with 400', async (t) => {
            const err = await rejects(t.admin.orgs.updateOrganizationById(t.orgId, { title: 'x' }), 400);
            assert.match(err.errorMessage, /title/);
            const { data } = await t.admin.orgs.getOrganizationById(t.orgId);
            assert.equal(data.title, 'Blackbox Docs');
        }],
        ['an organization the caller does not belong to is 404', async (t) => {
            await rejects(t.user.orgs.getOrganizationById(t.orgId), 404);
        }],
    ],
};
