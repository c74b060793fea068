// POST /orgs/{organizationId}/join.
import { assert, ids, need, rejects } from './lib.mjs';

export default {
    name: 'join',
    checks: [
        ['POST /orgs/{organizationId}/join admits a user of an allowed email domain', async (t) => {
            const res = await t.user.orgs.joinOrganization(t.orgId);
            assert.equal(res.status, 204);
            const { data } = await t.user.orgs.getOrganizationById(t.orgId);
            assert.equal(data.id, t.orgId);
            assert.equal(data.permissions.admin, false);
            const { data: mine } = await t.user.orgs.listOrganizationsForAuthenticatedUser();
            assert.deepEqual(ids(mine), [t.orgId]);
            // Sharing an organization now, the administrator can see the user.
            const { data: user } = await t.admin.users.getUserById(t.userId);
            assert.equal(user.id, t.userId);
        }],
        ['joining an organization that does not accept the domain is refused', async (t) => {
            await rejects(t.user.orgs.joinOrganization(need(t.state.otherOrgId, 'first-start organization')), 404);
            const { data: mine } = await t.user.orgs.listOrganizationsForAuthenticatedUser();
            assert.deepEqual(ids(mine), [t.orgId]);
        }],
    ],
};
