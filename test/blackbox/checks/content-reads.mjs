// Content reads: a change request's content, link checks and backlinks, evaluated pages.
import { assert, ids } from './lib.mjs';

// addPage adds a page to a change request through docsd's page route (the official client
// has no method for it) and returns the page's id.
async function addPage(t, spaceId, crId, title, markdown) {
    const res = await fetch(`${t.url}/v1/spaces/${spaceId}/change-requests/${crId}/pages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${process.env.BLACKBOX_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title, markdown }),
    });
    const body = await res.json();
    assert.equal(res.status, 201, JSON.stringify(body));
    return body.page;
}

// targets summarises link-check items as "status kind".
const targets = (list) => list.items.map((it) => `${it.status} ${it.targetReference.kind}`);

export default {
    name: 'content-reads',
    checks: [
        ['a change request\'s content, links and backlinks are read, then the space\'s after the merge', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Links' });
            const { data: cr } = await t.admin.spaces.createChangeRequest(space.id, { subject: 'Linked pages' });
            const home = await addPage(t, space.id, cr.id, 'Home',
                'See the [guide](guide.md), [nothing](missing.md) and [elsewhere](https://example.com/).\n\n' +
                'Two is <code class="expression">1 + 1</code>.\n');
            const guide = await addPage(t, space.id, cr.id, 'Guide', 'Back [home](home.md).\n');

            const { data: rev } = await t.admin.spaces.getRevisionOfChangeRequestById(space.id, String(cr.number));
            assert.equal(rev.object, 'revision');
            const { data: tree } = await t.admin.spaces.listPagesInChangeRequest(space.id, cr.id);
            assert.deepEqual(tree.pages.map((p) => p.id), [home, guide]);
            const { data: byPath } = await t.admin.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guide', { format: 'markdown' });
            assert.equal(byPath.id, guide);
            const { data: evaluated } = await t.admin.spaces.getPageInChangeRequestById(space.id, cr.id, home,
                { format: 'markdown', evaluated: 'deterministic-only' });
            assert.match(evaluated.markdown, /Two is 2\./);
            const { data: files } = await t.admin.spaces.listFilesInChangeRequestById(space.id, cr.id);
            assert.deepEqual(ids(files), []);

            const { data: crLinks } = await t.admin.spaces.listChangeRequestLinks(space.id, cr.id);
            assert.equal(crLinks.stats.total, 4);
            assert.equal(crLinks.stats.broken.total, 1);
            assert.equal(crLinks.stats.broken.changeRequest, 1);
            const { data: pageLinks } = await t.admin.spaces.listPageLinksInChangeRequest(space.id, cr.id, home);
            assert.deepEqual(targets(pageLinks).sort(), ['broken url', 'ok page', 'ok url']);
            assert.equal(pageLinks.items[0].locationReferences[0].versionContext.type, 'changeRequest');
            const { data: back } = await t.admin.spaces.listChangeRequestPageBacklinks(space.id, cr.id, guide);
            assert.deepEqual(back.items.map((l) => l.page.id), [home]);

            await t.admin.spaces.mergeChangeRequest(space.id, cr.id);
            const { data: broken } = await t.admin.spaces.listSpaceLinks(space.id, { status: 'broken' });
            assert.deepEqual(targets(broken), ['broken url']);
            assert.equal(broken.items[0].targetReference.url, 'missing.md');
            assert.equal(broken.stats.total, 4);
            const { data: headLinks } = await t.admin.spaces.listPageLinksInSpace(space.id, guide);
            assert.equal(headLinks.items[0].targetReference.page.id, home);
            const { data: homeBack } = await t.admin.spaces.listSpacePageBacklinks(space.id, home);
            assert.equal(homeBack.items[0].space.id, space.id);
            assert.equal(homeBack.items[0].organization.id, t.orgId);
        }],
    ],
};
