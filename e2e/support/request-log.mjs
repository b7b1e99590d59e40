// The e2e server's own view of every request and connection, for the failure report of a test whose page
// waited on a request (e2e/tests/network-report.ts reads it): did the request reach the server, on which
// connection, did its response finish, and did the server close that connection meanwhile (keep-alive)?
// One line per event, appended to <DATA_DIR>/e2e-requests.log; a request still unanswered after 5 s is
// also said on stderr at once. Observes through diagnostics_channel only: the app's code is untouched.
//
//   <epoch ms> conn <id> open <client port> | timeout (idle: the server closes it) | close
//   <epoch ms> req <id> conn <id> <method> <url> | done <status> <ms> | closed unfinished <ms> (…)
//   <epoch ms> slow event loop <ms> | slow file system <ms>  (static files wait on both, API calls not
//   on the file system: libuv's four threads, which other work can keep busy)
import diagnosticsChannel from 'node:diagnostics_channel';
import { createWriteStream, stat } from 'node:fs';
import { join } from 'node:path';

/** The log's name inside DATA_DIR (the tests read it from E2E_DATA_DIR, the same folder). */
export const REQUEST_LOG = 'e2e-requests.log';

const SLOW_MS = 5_000;
/** The server is probed once a second; a probe late by this much is logged. */
const PROBE_SLOW_MS = 500;

/** Starts logging the requests and connections of the server that listens on `port`, into `dataDir`. */
export function logRequests({ port, dataDir }) {
  const out = createWriteStream(join(dataDir, REQUEST_LOG), { flags: 'a' });
  const line = (text) => out.write(`${Date.now()} ${text}\n`);
  const connections = new WeakMap();
  const open = new Map();
  let lastConnection = 0;
  let lastRequest = 0;

  const connectionOf = (socket) => {
    let id = connections.get(socket);
    if (id !== undefined) return id;
    id = ++lastConnection;
    connections.set(socket, id);
    line(`conn ${id} open ${socket.remotePort}`);
    socket.on('timeout', () => line(`conn ${id} timeout`));
    socket.once('close', () => line(`conn ${id} close`));
    return id;
  };

  diagnosticsChannel.subscribe('net.server.socket', ({ socket }) => {
    if (socket.localPort === port) connectionOf(socket);
  });
  diagnosticsChannel.subscribe('http.server.request.start', ({ request, response, socket }) => {
    if (socket.localPort !== port) return;
    const id = ++lastRequest;
    const started = Date.now();
    line(`req ${id} conn ${connectionOf(socket)} ${request.method} ${request.url}`);
    open.set(id, { started, what: `${request.method} ${request.url}`, response, said: false });
    response.once('close', () => {
      open.delete(id);
      const took = Date.now() - started;
      if (response.writableFinished) line(`req ${id} done ${response.statusCode} ${took}ms`);
      else
        line(
          `req ${id} closed unfinished ${took}ms (${response.headersSent ? 'headers sent' : 'no headers sent'})`,
        );
    });
  });
  let lastTick = Date.now();
  let probing = false;
  setInterval(() => {
    const now = Date.now();
    if (now - lastTick - 1_000 >= PROBE_SLOW_MS) line(`slow event loop ${now - lastTick - 1_000}ms`);
    lastTick = now;
    if (!probing) {
      probing = true;
      stat(dataDir, () => {
        probing = false;
        if (Date.now() - now >= PROBE_SLOW_MS) line(`slow file system ${Date.now() - now}ms`);
      });
    }
    for (const [id, request] of open) {
      if (request.said || now - request.started < SLOW_MS) continue;
      request.said = true;
      const headers = request.response.headersSent ? 'headers sent' : 'no headers sent';
      console.error(`e2e server: req ${id} ${request.what} not finished after ${SLOW_MS} ms (${headers})`);
    }
  }, 1_000).unref();
}
