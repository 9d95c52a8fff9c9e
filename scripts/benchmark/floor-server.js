/**
 * The floor a query operation is measured against in `npm run bench:scale`: node:http, the same
 * SQLite file opened read-only with the repository's better-sqlite3, and nothing else. For each
 * request it reads the body to its end, finds which of the benchmark's requests it is (a Map from
 * request body to its entry), reads that operation's rows with prepared statements in raw mode
 * (floor-queries.js), and writes the bytes the service answered for the same body (same status,
 * Content-Type and Content-Length, written with one writeHead as bare-server.js writes them).
 * What the service does beyond this (parsing the envelope, the pipeline, building objects and
 * XML, the audit trail) is what the benchmark's ratio measures.
 *
 * Plain JavaScript run by node directly, like bare-server.js. Usage: node floor-server.js
 * <floor.json>, where the file is { database, entries: [{ operation, values, request, status,
 * contentType, body }] } (body in base64; scripts/benchmark/floor.ts writes it). Before it listens
 * it reads every entry's rows once and checks that they are as many records as the service's
 * answer lists; then it prints "listening <port>" on 127.0.0.1.
 */
const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');
const Database = require('better-sqlite3');
const { floorQueries } = require('./floor-queries.js');

const { database: file, entries } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const queries = floorQueries(new Database(file, { readonly: true, fileMustExist: true }));

const replies = new Map();
for (const entry of entries) {
  const query = queries[entry.operation];
  if (!query) throw new Error(`the floor has no reads for ${entry.operation}`);
  const body = Buffer.from(entry.body, 'base64');
  const values = entry.values.map(Number);
  const listed = query.run(values);
  const answered = body.toString('utf8').split(`<${query.element}>`).length - 1;
  if (listed !== answered) {
    const request = `${entry.operation} ${entry.values.join(', ')}`;
    throw new Error(`${request}: the floor read ${listed} records, the service answered ${answered}`);
  }
  const headers = entry.contentType === undefined ? {} : { 'Content-Type': entry.contentType };
  headers['Content-Length'] = body.length;
  replies.set(entry.request, { run: query.run, values, status: entry.status, headers, body });
}

const server = createServer((request, response) => {
  let text = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    text += chunk;
  });
  request.on('end', () => {
    const reply = replies.get(text);
    if (!reply) {
      response.writeHead(404, { 'Content-Length': 0 });
      response.end();
      return;
    }
    reply.run(reply.values);
    response.writeHead(reply.status, reply.headers);
    response.end(reply.body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
