/**
 * The watch tools over MCP (lib/features/watch/): `watch_site`, `list_watches`, `unwatch_site`. Unlike the
 * other tools they act for an account, so they need its API key in the MCP request's own header,
 * `Authorization: Bearer <key>` (never as a tool argument: a key in the arguments would end up in
 * the agent's transcript). The other tools need none and ignore it.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HttpError } from "../../kit/errors.ts";
import { accountOfBearer } from "../../kit/auth/caller.ts";
import { watchOf, type WithWatch } from "./context.ts";
import {
  addWatch,
  deliveryView,
  listWatches,
  recentDeliveries,
  removeWatch,
  watchView,
} from "./watches.ts";
import { normaliseTarget } from "../../kit/net/target.ts";
import {
  guarded,
  type McpContext,
  type McpDeps,
  type McpTool,
  refusal,
  toolError,
  toolResult,
} from "../../kit/mcp/context.ts";

const NEEDS_KEY = "Needs the account's API key in the MCP request's Authorization header " +
  "(Bearer <key>); the other tools need none.";

/** What the watch tools need of the app: the watch feature (built by lib/app/server.ts). */
type WatchMcpDeps = McpDeps & WithWatch;

/** The watch tools, in the order tools/list gives them: offered where the app built watches. */
export const WATCH_TOOLS: readonly McpTool<WatchMcpDeps>[] = [
  { name: "watch_site", offered: hasWatch, register: registerWatchSite },
  { name: "list_watches", offered: hasWatch, register: registerListWatches },
  { name: "unwatch_site", offered: hasWatch, register: registerUnwatchSite },
];

function hasWatch(deps: WatchMcpDeps): boolean {
  return deps.watch !== undefined;
}

/** The account of the request's key, or the tool error that says the key is needed. */
async function account(ctx: McpContext<WatchMcpDeps>) {
  const w = watchOf(ctx.deps);
  try {
    const { accountId } = await accountOfBearer(ctx.authorization, {
      store: ctx.deps.store,
      keyPrefix: ctx.deps.service.keyPrefix,
      now: ctx.deps.now,
    });
    return { w, accountId };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
      return { error: toolError(`${error.message}. ${NEEDS_KEY}`) };
    }
    throw error;
  }
}

/** Registers watch_site: adds a watch to the account's list. */
function registerWatchSite(server: McpServer, ctx: McpContext<WatchMcpDeps>): void {
  server.registerTool("watch_site", {
    title: "Watch a site for regressions",
    description: "Adds the site (or, on the Schema Markup Generator, the page) to the account's " +
      "watch list: it is rescanned daily or weekly and compared with the scan before; a " +
      "regression (lower score or grade, new score cap or critical issue, a crawler newly " +
      "blocked, a rich result lost) is sent to the webhook, signed. Returns the watch and, with " +
      `a webhook, its signing secret (shown only this once). ${NEEDS_KEY}`,
    inputSchema: {
      url: z.string().trim().min(1).max(2048).describe("The domain or page to watch."),
      schedule: z.enum(["daily", "weekly"]).optional().describe("Default: daily."),
      webhookUrl: z.string().max(2048).optional()
        .describe("An https URL that receives the alerts (optional)."),
      webhookFormat: z.enum(["json", "slack", "discord"]).optional()
        .describe("json (signed event, default), slack or discord incoming webhook."),
    },
    outputSchema: {
      watch: z.record(z.string(), z.unknown()).describe("The watch (GET /api/watches shape)."),
      webhookSecret: z.string().nullable().describe("The signing secret, shown only now."),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  }, (args) =>
    guarded(ctx, "watch_site", async () => {
      const a = await account(ctx);
      if ("error" in a) return a.error!;
      try {
        const { watch, webhookSecret } = await addWatch(a.w, a.accountId, args, "mcp", ctx.ip);
        const view = watchView(watch, a.w.origin);
        return toolResult(
          `Now watching ${watch.target} (${watch.schedule}); next run ${view.nextRunAt}. ` +
            `Feed: ${view.feed}` +
            (webhookSecret ? `\nWebhook signing secret (shown once): ${webhookSecret}` : ""),
          { watch: view as unknown as Record<string, unknown>, webhookSecret },
        );
      } catch (error) {
        return refusal(error) ?? Promise.reject(error);
      }
    }));
}

/** Registers list_watches: the account's watches and its last deliveries. */
function registerListWatches(server: McpServer, ctx: McpContext<WatchMcpDeps>): void {
  server.registerTool("list_watches", {
    title: "List the account's watches",
    description: "The account's watched sites with their schedule, last run and last alert, " +
      `their public feeds, and the last webhook deliveries with the answers. ${NEEDS_KEY}`,
    inputSchema: {},
    outputSchema: {
      watches: z.array(z.record(z.string(), z.unknown())),
      deliveries: z.array(z.record(z.string(), z.unknown())),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, () =>
    guarded(ctx, "list_watches", async () => {
      const a = await account(ctx);
      if ("error" in a) return a.error!;
      const [watches, deliveries] = await Promise.all([
        listWatches(a.w, a.accountId),
        recentDeliveries(a.w, a.accountId, 10),
      ]);
      const views = watches.map((w) => watchView(w, a.w.origin));
      return toolResult(
        views.length
          ? views.map((v) =>
            `${v.id} ${v.target} (${v.schedule}): ${
              v.lastAlert
                ? `last alert ${v.lastAlert.at}: ${v.lastAlert.texts.join(" ")}`
                : "no alert"
            }`
          ).join("\n")
          : "No watch yet. Call watch_site to add one.",
        { watches: views, deliveries: deliveries.map(deliveryView) },
      );
    }));
}

/** Registers unwatch_site: removes a watch. */
function registerUnwatchSite(server: McpServer, ctx: McpContext<WatchMcpDeps>): void {
  server.registerTool("unwatch_site", {
    title: "Stop watching a site",
    description: "Removes a watch (by its id from list_watches, or by the domain or page it " +
      `watches): it stops at once, with its pending alerts. ${NEEDS_KEY}`,
    inputSchema: {
      id: z.string().trim().max(100).optional().describe("The watch's id."),
      url: z.string().trim().max(2048).optional().describe("Or the domain or page watched."),
    },
    outputSchema: {
      deleted: z.boolean(),
      watch: z.record(z.string(), z.unknown()),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  }, ({ id, url }) =>
    guarded(ctx, "unwatch_site", async () => {
      const a = await account(ctx);
      if ("error" in a) return a.error!;
      let watchId = id;
      if (!watchId && url) {
        const t = normaliseTarget(url);
        const found = (await listWatches(a.w, a.accountId)).find((w) =>
          w.target === t.domain || w.target === t.pageUrl
        );
        watchId = found?.id;
      }
      if (!watchId) return toolError("No such watch: give the id from list_watches, or the url.");
      try {
        const removed = await removeWatch(a.w, a.accountId, watchId, ctx.ip);
        return toolResult(`No longer watching ${removed.target}.`, {
          deleted: true,
          watch: watchView(removed, a.w.origin),
        });
      } catch (error) {
        return refusal(error) ?? Promise.reject(error);
      }
    }));
}
