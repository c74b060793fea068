// An integration written for internal/jsrun's end-to-end test, the way real ones are: with
// @gitbook/runtime's createIntegration, bundled as @gitbook/cli bundles (see bundle in
// runtime_test.go). It answers fetch events, reacts to a GitBook event by calling the API with
// its installation token, renders a ContentKit component, gives a published site its script,
// and sends a site's visitor to an identity provider with a token signed by WebCrypto.
import { createIntegration, createComponent } from '@gitbook/runtime';

const greeting = createComponent<{ name: string }, { count: number }>({
    componentId: 'greeting',
    initialState: () => ({ count: 0 }),
    action: async (element, action) => {
        if (action.action === 'increment') {
            return { state: { count: element.state.count + 1 } };
        }
        return {};
    },
    render: async (element) => (
        <block>
            <text>
                Hello {element.props.name}, {String(element.state.count)}
            </text>
        </block>
    ),
});

// card is a block for published pages: the ContentKit elements real blocks use, kept a minute.
const card = createComponent<{ title?: string }>({
    componentId: 'card',
    render: async (element) => {
        element.setCache({ maxAge: 60 });
        return (
            <block>
                <vstack>
                    <text style="bold">Card: {element.props.title ?? 'untitled'}</text>
                    <text style="code">render {crypto.randomUUID()}</text>
                    <markdown content={'Some **markdown** <script>alert(1)</script>'} />
                    <codeblock content="if (a < b) run();" syntax="javascript" />
                    <hstack>
                        <box>
                            <image source={{ url: 'https://img.example.test/a.png' }} aspectRatio={2} />
                        </box>
                        <button label="Open docs" onPress={{ action: '@ui.url.open', url: 'https://docs.example.test/' }} />
                    </hstack>
                    <webframe source={{ url: 'https://embed.example.test/frame?x=1' }} aspectRatio={16 / 9} />
                </vstack>
            </block>
        );
    },
});

// fresh says nothing of caching: every page read renders it again.
const fresh = createComponent({
    componentId: 'fresh',
    render: async () => (
        <block>
            <text style="code">render {crypto.randomUUID()}</text>
        </block>
    ),
});

// broken throws while rendering; spin never finishes (the engine's time limit stops it).
const broken = createComponent({
    componentId: 'broken',
    render: async () => {
        throw new Error('the block broke on purpose');
    },
});
const spin = createComponent({
    componentId: 'spin',
    render: async () => {
        for (;;) {}
    },
});

// signToken makes an HS256 JWT with crypto.subtle, as visitor-authentication integrations do.
async function signToken(claims: object, secret: string): Promise<string> {
    const enc = new TextEncoder();
    const b64url = (bytes: Uint8Array) =>
        btoa(String.fromCharCode(...bytes))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, '');
    const input = `${b64url(enc.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })))}.${b64url(enc.encode(JSON.stringify(claims)))}`;
    const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const sig = await crypto.subtle.sign('HMAC', key, enc.encode(input));
    return `${input}.${b64url(new Uint8Array(sig))}`;
}

export default createIntegration({
    fetch: async (request, context) => {
        const url = new URL(request.url);
        const body = request.method === 'POST' ? await request.json() : null;
        return Response.json(
            {
                method: request.method,
                path: url.pathname,
                q: url.searchParams.get('q'),
                header: request.headers.get('x-test'),
                body,
                installation: context.environment.installation?.id ?? null,
                space: context.environment.spaceInstallation?.space ?? null,
                site: context.environment.siteInstallation?.site ?? null,
            },
            { status: 202, headers: { 'x-integration': 'jsrun-test' } },
        );
    },
    events: {
        space_content_updated: async (event, context) => {
            const { data: space } = await context.api.spaces.getSpaceById(event.spaceId);
            console.log(`space ${space.id} is titled ${space.title}`);
            context.waitUntil(
                new Promise<void>((resolve) =>
                    setTimeout(() => {
                        console.info('follow-up done');
                        resolve();
                    }, 5),
                ),
            );
        },
    },
    fetch_published_script: async (event, context) => {
        const config = context.environment.siteInstallation?.configuration as { trackingId?: string };
        // It marks the page it runs in, so a browser test sees that it ran.
        const id = JSON.stringify(config?.trackingId ?? null);
        return new Response(`window.docsdTracking = ${id}; document.documentElement.setAttribute("data-docsd-tracking", String(${id}));`, {
            headers: { 'Content-Type': 'application/javascript', 'Cache-Control': 'max-age=60' },
        });
    },
    fetch_visitor_authentication: async (event, context) => {
        const token = await signToken(
            { sub: 'reader', site: event.siteId, exp: Math.floor(Date.now() / 1000) + 60 },
            context.environment.signingSecrets.siteInstallation ?? '',
        );
        const target = new URL('https://idp.example.test/authorize');
        target.searchParams.set('return', event.location ?? '/');
        target.searchParams.set('token', token);
        return Response.redirect(target.toString(), 302);
    },
    components: [greeting, card, fresh, broken, spin],
});
