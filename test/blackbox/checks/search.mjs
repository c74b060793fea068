// Search: a page is found by a word in it, in its space and across the organization, as soon
// as the change request that wrote the word is merged.
import { assert, ids, need, rejects } from './lib.mjs';

async function addPage(t, spaceId, crId, body) {
    const res = await fetch(`${t.url}/v1/spaces/${spaceId}/change-requests/${crId}/pages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${process.env.BLACKBOX_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, 201, text);
    return JSON.parse(text).page;
}

export default {
    name: 'search',
    checks: [
        ['a merged page is found by a word in it, in its space and in its organization', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Searchable' });
            t.state.searchSpace = space.id;
            const { data: cr } = await t.admin.spaces.createChangeRequest(space.id, { subject: 'Add a page' });
            const pageId = await addPage(t, space.id, cr.id, {
                title: 'Field notes',
                markdown: 'Opening words.\n\n## Sightings\n\nA quokka was seen near the river.\n',
            });
            const { data: before } = await t.admin.spaces.searchSpaceContent(space.id, { query: 'quokka' });
            assert.deepEqual(ids(before), []);
            await t.admin.spaces.mergeChangeRequest(space.id, cr.id);

            const { data: found } = await t.admin.spaces.searchSpaceContent(space.id, { query: 'quokka' });
            assert.deepEqual(ids(found), [pageId]);
            const page = found.items[0];
            assert.equal(page.title, 'Field notes');
            assert.equal(page.path, 'field-notes');
            assert.equal(page.sections.length, 1);
            assert.equal(page.sections[0].title, 'Sightings');
            assert.match(page.sections[0].body, /quokka was seen/);
            assert.match(page.sections[0].urls.app, /#sightings$/);

            const { data: org } = await t.admin.orgs.searchOrganizationContent(t.orgId, { query: 'QUOKKA' });
            assert.deepEqual(ids(org), [space.id]);
            assert.equal(org.items[0].title, 'Searchable');
            assert.deepEqual(org.items[0].pages.map((p) => p.id), [pageId]);
        }],
        ['search refuses an empty or too long query, and an unknown token', async (t) => {
            const space = { id: need(t.state.searchSpace, 'searchable space') };
            await rejects(t.admin.spaces.searchSpaceContent(space.id, { query: '' }), 400);
            await rejects(t.admin.orgs.searchOrganizationContent(t.orgId, { query: 'x'.repeat(513) }), 400);
            const stranger = t.client('dsd_not_a_token');
            await rejects(stranger.spaces.searchSpaceContent(space.id, { query: 'quokka' }), 401);
        }],
    ],
};
