// An integration written for internal/jsrun's end-to-end test, the way real ones are: with
// @gitbook/runtime's createIntegration, bundled as @gitbook/cli bundles (see bundle in
// runtime_test.go). It answers fetch events, reacts to a GitBook event by calling the API with
// its installation token, and renders a ContentKit component.
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
                Hello {element.props.name}, {element.state.count}
            </text>
        </block>
    ),
});

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
    components: [greeting],
});
