/**
 * The server as main.ts builds and serves it (createServer, serveHttp, the "Listening on" line),
 * with one difference: its "log-read" job is tests/fixtures/stuck_log_reader.ts, a reader that
 * never returns on an upload naming `never-ends.test`. tests/security/log_read_isolation_test.ts
 * starts it with the start task's exact flags and permissions.
 */
import { loadConfig } from "../../lib/kit/config.ts";
import { createServer } from "../../lib/app/server.ts";
import { serveHttp } from "../../lib/app/serve.ts";

const config = loadConfig();
const server = await createServer(config, {
  jobModules: { "log-read": new URL("../fixtures/stuck_log_reader.ts", import.meta.url) },
});
console.log(server.isolation);
const serving = serveHttp(config, server.servedHandler, {
  log: server.log,
  hostname: config.hostname,
});
console.log(`Listening on http://${serving.addr.hostname}:${serving.addr.port}/`);
