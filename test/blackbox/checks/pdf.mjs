// Change request PDFs: the official client asks for a URL; the URL works without a token.
import { assert, rejects } from './lib.mjs';

export default {
    name: 'pdf',
    checks: [
        ['a change request PDF URL serves a PDF to whoever holds it, and refuses an altered one', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Printed' });
            const { data: cr } = await t.admin.spaces.createChangeRequest(space.id, { subject: 'Print me' });
            const page = await fetch(`${t.url}/v1/spaces/${space.id}/change-requests/${cr.id}/pages`, {
                method: 'POST',
                headers: { Authorization: `Bearer ${process.env.BLACKBOX_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
                body: JSON.stringify({ title: 'Printed page', markdown: 'Text to print.\n' }),
            });
            assert.equal(page.status, 201, await page.text());

            const { data } = await t.admin.spaces.getChangeRequestPdf(space.id, cr.id);
            assert.equal(typeof data.url, 'string');
            const pdf = await fetch(data.url); // no Authorization header
            assert.equal(pdf.status, 200);
            assert.equal(pdf.headers.get('content-type'), 'application/pdf');
            const bytes = Buffer.from(await pdf.arrayBuffer());
            assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');

            const altered = await fetch(data.url.slice(0, -2) + (data.url.endsWith('AA') ? 'BB' : 'AA'));
            assert.equal(altered.status, 403);
            assert.equal((await altered.json()).error.code, 403);

            await rejects(t.admin.spaces.getChangeRequestPdf(space.id, cr.id, { only: true }), 400);
        }],
    ],
};
