/**
 * The server as main.ts builds and serves it (createServer, serveHttp, the "Listening on" line),
 * with one difference: its visibility scanner is "old code" (tests/fixtures/old_site_name_scanner.ts,
 * the site-name rule as it was before issue 39). tests/security/cpu_isolation_test.ts starts it
 * with the start task's exact flags and permissions, so a scan can hold its worker's CPU for hours
 * whatever the product's parsers have become.
 */
import { loadConfig } from "../../lib/kit/config.ts";
import { createServer } from "../../lib/app/server.ts";
import { serveHttp } from "../../lib/app/serve.ts";
import { visibilityService } from "../../lib/features/visibility/service.ts";

const config = loadConfig();
const server = await createServer(config, {
  service: {
    ...visibilityService,
    scanner: new URL("../fixtures/old_site_name_scanner.ts", import.meta.url),
  },
});
console.log(server.isolation);
const serving = serveHttp(config, server.servedHandler, {
  log: server.log,
  hostname: config.hostname,
});
console.log(`Listening on http://${serving.addr.hostname}:${serving.addr.port}/`);
