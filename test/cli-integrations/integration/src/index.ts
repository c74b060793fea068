// The integration the CLI test publishes: written with @gitbook/runtime as integrations are,
// bundled by `gitbook publish` (esbuild) and sent to docsd as one script.
import { createIntegration } from '@gitbook/runtime';

export default createIntegration({
    events: {
        installation_setup: async (event) => {
            console.log(`installed: ${event.installationId}`);
        },
    },
    fetch: async () => new Response('docsd cli test'),
});
