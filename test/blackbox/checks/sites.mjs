// Docs sites: create a site with a space, add a section, sort the structure, create a share
// link, publish, and read the published profile through the share key.
import { assert, ids, need, rejects } from './lib.mjs';

export default {
    name: 'sites',
    checks: [
        ['POST /orgs/{organizationId}/sites creates a site with a space (201)', async (t) => {
            const space = await t.admin.orgs.createSpace(t.orgId, { title: 'Site guide' });
            const res = await t.admin.orgs.createSite(t.orgId, { title: 'Help Center', visibility: 'share-link', spaces: [space.data.id] });
            assert.equal(res.status, 201);
            assert.equal(res.data.object, 'site');
            assert.equal(res.data.type, 'basic');
            assert.equal(res.data.published, false);
            assert.equal(res.data.siteSpaces, 1);
            t.state.siteId = res.data.id;
            t.state.siteGuideSpaceId = space.data.id;
            const { data } = await t.admin.orgs.listSites(t.orgId, { space: space.data.id });
            assert.deepEqual(ids(data), [res.data.id]);
        }],
        ['POST site-spaces adds a space (201) and GET lists it with its default flag', async (t) => {
            const siteId = need(t.state.siteId, 'site');
            const space = await t.admin.orgs.createSpace(t.orgId, { title: 'Site API' });
            const res = await t.admin.orgs.addSpaceToSite(t.orgId, siteId, { spaceId: space.data.id });
            assert.equal(res.status, 201);
            assert.equal(res.data.object, 'site-space');
            assert.equal(res.data.space.id, space.data.id);
            assert.equal(res.data.default, false);
            const { data } = await t.admin.orgs.listSiteSpaces(t.orgId, siteId, { default: true });
            assert.equal(data.items.length, 1);
            assert.equal(data.items[0].space.id, need(t.state.siteGuideSpaceId, 'space'));
            t.state.siteApiSpaceId = space.data.id;
        }],
        ['POST sections adds a section (201); the site is then organized in sections', async (t) => {
            const siteId = need(t.state.siteId, 'site');
            const res = await t.admin.orgs.addSectionToSite(t.orgId, siteId, { spaceId: need(t.state.siteApiSpaceId, 'space'), title: 'Reference' });
            assert.equal(res.status, 201);
            assert.equal(res.data.object, 'site-section');
            assert.equal(res.data.default, true);
            const second = await t.admin.orgs.addSectionToSite(t.orgId, siteId, { spaceId: t.state.siteGuideSpaceId, title: 'Tutorials' });
            const { data } = await t.admin.orgs.getSiteStructure(t.orgId, siteId);
            assert.equal(data.type, 'sections');
            assert.deepEqual(data.structure.map((s) => s.id), [res.data.id, second.data.id]);
            t.state.siteSectionIds = [res.data.id, second.data.id];
        }],
        ['PATCH structure/sort moves a section before another', async (t) => {
            const siteId = need(t.state.siteId, 'site');
            const [first, second] = need(t.state.siteSectionIds, 'sections');
            const { data } = await t.admin.orgs.sortSiteStructure(t.orgId, siteId, {
                item: { type: 'site-section', id: second }, position: { before: { type: 'site-section', id: first } },
            });
            assert.equal(data.id, second);
            const { data: sections } = await t.admin.orgs.listSiteSections(t.orgId, siteId);
            assert.deepEqual(ids(sections), [second, first]);
            await rejects(t.admin.orgs.sortSiteStructure(t.orgId, siteId, {
                item: { type: 'site-section', id: second }, position: { before: { type: 'site-section', id: 'nope' } },
            }), 400);
        }],
        ['POST share-links creates an active link with a secret key (201)', async (t) => {
            const siteId = need(t.state.siteId, 'site');
            const res = await t.admin.orgs.createSiteShareLink(t.orgId, siteId, { name: 'Partners' });
            assert.equal(res.status, 201);
            assert.equal(res.data.object, 'share-link');
            assert.equal(res.data.active, true);
            const key = new URL(res.data.urls.published).searchParams.get('shareKey');
            assert.ok(key && key.length >= 32, `no key in ${res.data.urls.published}`);
            t.state.shareKey = key;
            const { data } = await t.admin.orgs.listSiteShareLinks(t.orgId, siteId);
            assert.deepEqual(ids(data), [res.data.id]);
        }],
        ['POST publish publishes the site; the published profile takes the share key', async (t) => {
            const siteId = need(t.state.siteId, 'site');
            const { data } = await t.admin.orgs.publishSite(t.orgId, siteId);
            assert.equal(data.published, true);
            assert.match(data.urls.published, new RegExp(`/sites/${t.orgId}/help-center/$`));
            t.state.sitePublishedURL = data.urls.published;
            const { data: profile } = await t.admin.orgs.getPublishedContentSite(t.orgId, siteId, { shareKey: need(t.state.shareKey, 'share key') });
            assert.equal(profile.object, 'published-content-site');
            assert.equal(profile.site.published, true);
            assert.equal(profile.structure.type, 'sections');
            assert.ok(profile.structure.structure[0].urls.published.includes(`shareKey=${t.state.shareKey}`));
            assert.equal(typeof profile.customizations.site.styling.primaryColor.light, 'string');
        }],
        ['a member reads the site but may not change it (403); others get 404', async (t) => {
            const siteId = need(t.state.siteId, 'site');
            const { data } = await t.user.orgs.getSiteById(t.orgId, siteId);
            assert.equal(data.id, siteId);
            await rejects(t.user.orgs.updateSiteById(t.orgId, siteId, { title: 'Mine' }), 403);
            await rejects(t.admin.orgs.getSiteById(t.orgId, 'no-such-site'), 404);
        }],
    ],
};
