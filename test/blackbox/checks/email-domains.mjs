// GET /email-domains/{emailDomain}/orgs.
import { assert } from './lib.mjs';

export default {
    name: 'email-domains',
    checks: [
        ['GET /email-domains/{domain}/orgs lists organizations open to the caller\'s domain', async (t) => {
            const domain = t.userEmail.split('@')[1];
            const { data } = await t.user.emailDomains.getOrganizationsForEmailDomain(domain);
            const found = data.organizations.find((o) => o.id === t.orgId);
            assert.ok(found, `${t.orgId} not in ${data.organizations.map((o) => o.id)}`);
            assert.equal(found.object, 'organization');
            assert.equal(found.title, 'Blackbox Docs');
        }],
        ['a domain no organization accepts lists nothing', async (t) => {
            const { data } = await t.user.emailDomains.getOrganizationsForEmailDomain('nobody.invalid');
            assert.deepEqual(data.organizations, []);
        }],
    ],
};
