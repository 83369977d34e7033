/**
 * The app's dependencies: the kit's (lib/kit/web/context.ts AppDeps: the config, the stores, the
 * service, the challenge, the clock, the sections other features add to pages) with each
 * feature's own part, as that feature types it (its context.ts: `WithWatch`, `WithAnswers`). A
 * feature's routes and tools say which part they read (`RouteDef<AppDeps & WithWatch>`); only this
 * module names them all. createServer (lib/app/server.ts) builds it.
 */
import type { AppDeps } from "../kit/web/context.ts";
import type { McpDeps } from "../kit/mcp/context.ts";
import type { WithWatch } from "../features/watch/context.ts";
import type { WithAnswers } from "../features/answers/context.ts";

/** Everything the routes, the MCP server and the pages' sections are built with. */
export type ServerDeps = AppDeps & WithWatch & WithAnswers;

/**
 * What the MCP server is built with (lib/app/mcp_server.ts): the kit's McpDeps with the same
 * features' parts ({@link ServerDeps} fits; tests hand in the scan flow's part alone).
 */
export type ServerMcpDeps = McpDeps & WithWatch & WithAnswers;
