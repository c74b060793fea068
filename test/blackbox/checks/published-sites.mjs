// Published sites: a site is built and published through the official client, then read the
// way a browser reads it, over plain HTTP at the URLs the API answers.
import { assert, need, rejects } from './lib.mjs';

// ours sends a request to a docsd route the official client has no method for.
async function ours(t, method, path, body) {
    const res = await fetch(`${t.url}/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${process.env.BLACKBOX_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, data: text ? JSON.parse(text) : null };
}

// read fetches a published page without following redirects, as a reader with cookies.
async function read(url, cookies = [], headers = {}) {
    const res = await fetch(url, { redirect: 'manual', headers: { ...headers, Cookie: cookies.join('; ') } });
    return { status: res.status, headers: res.headers, body: await res.text() };
}

export default {
    name: 'published-sites',
    checks: [
        ['a share-link site is created, given a space, a section and a share link, published, and read over HTTP', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Reader guide' });
            const { data: cr } = await t.admin.spaces.createChangeRequest(space.id, { subject: 'First page' });
            const page = await ours(t, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/pages`,
                { title: 'Welcome', markdown: 'Hello, readers of the published site.\n' });
            assert.equal(page.status, 201, JSON.stringify(page.data));
            await t.admin.spaces.mergeChangeRequest(space.id, cr.id);

            const created = await t.admin.orgs.createSite(t.orgId, { title: 'Black-box site', visibility: 'share-link' });
            assert.equal(created.status, 201);
            const site = created.data;
            const { data: section } = await t.admin.orgs.addSectionToSite(t.orgId, site.id, { spaceId: space.id, title: 'Guides' });
            assert.equal(section.object, 'site-section');
            const link = await t.admin.orgs.createSiteShareLink(t.orgId, site.id, { name: 'Readers' });
            assert.equal(link.status, 201);
            const { data: published } = await t.admin.orgs.publishSite(t.orgId, site.id);
            assert.equal(published.published, true);
            const siteURL = need(published.urls.published, 'the published URL');

            // Without the key, nothing: not even that the site exists.
            const refused = await read(siteURL);
            assert.equal(refused.status, 404);
            assert.ok(!refused.body.includes('Hello, readers'), 'a reader without the key sees content');

            // The share link's URL lets the reader in, and the key is remembered in a cookie.
            const { data: links } = await t.admin.orgs.listSiteShareLinks(t.orgId, site.id);
            const shared = await read(need(links.items[0]?.urls?.published, "the share link's URL"));
            assert.equal(shared.status, 303);
            const cookies = shared.headers.getSetCookie().map((c) => c.split(';')[0]);
            assert.ok(cookies.length > 0, 'no cookie remembers the key');
            const next = new URL(shared.headers.get('location'), siteURL).href;
            assert.equal(next, siteURL);
            const home = await read(next, cookies);
            assert.equal(home.status, 200, home.body);
            assert.match(home.headers.get('content-type'), /^text\/html/);
            assert.ok(home.body.includes('Hello, readers of the published site.'), home.body);
            assert.ok(home.body.includes('<title>Welcome - Black-box site</title>'), 'no page title');
            assert.ok(home.body.includes('name="robots" content="noindex'), 'a share-link page is indexable');
            assert.match(home.headers.get('content-security-policy'), /default-src 'none'/);

            // The ETag revalidates.
            const again = await read(next, cookies, { 'If-None-Match': home.headers.get('etag') });
            assert.equal(again.status, 304);

            // A deactivated link no longer admits, and the API still answers JSON errors.
            await t.admin.orgs.updateSiteShareLinkById(t.orgId, site.id, link.data.id, { active: false });
            assert.equal((await read(next, cookies)).status, 404);
            await rejects(t.admin.orgs.getSiteById(t.orgId, 'no-such-site'), 404);
        }],
    ],
};
