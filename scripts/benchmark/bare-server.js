/**
 * The baseline the service is measured against: node:http and nothing else. It answers each
 * benchmark request with the bytes the service gave for it (same status, Content-Type and body,
 * written with the same writeHead call), found by method, URL and request Content-Type. Like any
 * server that takes POST bodies it reads the request to its end before answering.
 *
 * Plain JavaScript run by node directly, so the baseline carries no loader and needs no build.
 * Usage: node bare-server.js <responses.json>; prints "listening <port>" once it listens on
 * 127.0.0.1. The file is what scripts/benchmark/capture.ts writes.
 */
const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');

function keyOf(method, url, contentType) {
  return `${method} ${url} ${contentType || ''}`;
}

const responses = new Map();
for (const entry of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  const body = Buffer.from(entry.body, 'base64');
  const headers = entry.contentType === undefined ? {} : { 'Content-Type': entry.contentType };
  headers['Content-Length'] = body.length;
  responses.set(keyOf(entry.method, entry.path, entry.requestContentType), { status: entry.status, headers, body });
}

const server = createServer((request, response) => {
  const reply = responses.get(keyOf(request.method, request.url, request.headers['content-type']));
  request.resume();
  request.on('end', () => {
    if (!reply) {
      response.writeHead(404, { 'Content-Length': 0 });
      response.end();
      return;
    }
    response.writeHead(reply.status, reply.headers);
    response.end(reply.body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
