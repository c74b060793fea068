// A stand-in for `gitbook dev`'s local server behind its tunnel: it loads the integration's
// bundle as `gitbook publish` built it and hands each request docsd delivers to the bundle's
// own fetch handler (@gitbook/runtime's dispatcher), answering with what it answers.
//
//   node receiver.mjs <bundle.js>   prints "listening <port>", then "dispatched <status>" per request
import http from 'node:http';
import { pathToFileURL } from 'node:url';

const integration = (await import(pathToFileURL(process.argv[2]).href)).default;

const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers,
        body: Buffer.concat(chunks),
    });
    try {
        const answer = await integration.fetch(request, {}, { waitUntil() {} });
        res.writeHead(answer.status);
        res.end(Buffer.from(await answer.arrayBuffer()));
        console.log(`dispatched ${answer.status}`);
    } catch (err) {
        res.writeHead(500);
        res.end(String(err));
        console.log(`failed ${err}`);
    }
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
