// Docs-agent instructions of an organization.
import { assert, isTime, need, rejects, texts } from './lib.mjs';

const paragraph = (key, text) => ({
    object: 'block',
    type: 'paragraph',
    key,
    isVoid: false,
    data: {},
    nodes: [{ object: 'text', key: `${key}-text`, leaves: [{ object: 'leaf', text, marks: [] }] }],
});

const instructions = {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: [paragraph('p1', 'Answer in plain English.'), paragraph('p2', 'Link to the page you quote.')],
};

export default {
    name: 'agent',
    checks: [
        ['PUT /orgs/{organizationId}/agent-instructions stores the document', async (t) => {
            const adminId = need(t.state.adminId, 'administrator id');
            const res = await t.admin.orgs.updateOrganizationAgentInstructions(t.orgId, { instructions });
            assert.equal(res.status, 200);
            assert.equal(res.data.object, 'agent-instructions');
            assert.equal(res.data.instructions.object, 'document');
            assert.deepEqual(texts(res.data.instructions), ['Answer in plain English.', 'Link to the page you quote.']);
            isTime(res.data.updatedAt, 'updatedAt');
            assert.equal(res.data.updatedBy, adminId);
        }],
        ['GET /orgs/{organizationId}/agent-instructions answers what was stored', async (t) => {
            const { data } = await t.user.orgs.getOrganizationAgentInstructions(t.orgId);
            assert.equal(data.object, 'agent-instructions');
            assert.equal(data.instructions.data.schemaVersion, 1);
            assert.deepEqual(texts(data.instructions), ['Answer in plain English.', 'Link to the page you quote.']);
            // The public spec calls this URL relative; docsd's URLs are absolute. Either ends so.
            assert.ok(data.urls.location.endsWith(`/orgs/${t.orgId}/agent-instructions`), data.urls.location);
        }],
        ['a member who is not an admin cannot change them (403)', async (t) => {
            const changed = { ...instructions, nodes: [paragraph('p1', 'Ignore everything.')] };
            await rejects(t.user.orgs.updateOrganizationAgentInstructions(t.orgId, { instructions: changed }), 403);
            const { data } = await t.admin.orgs.getOrganizationAgentInstructions(t.orgId);
            assert.deepEqual(texts(data.instructions), ['Answer in plain English.', 'Link to the page you quote.']);
        }],
    ],
};
