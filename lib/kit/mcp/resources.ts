/**
 * MCP resources: a domain's stored report as the resource `report://{domain}`, for every service
 * (a service's own prompts are registered by its adapter, lib/features/<name>/mcp.ts).
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { InvalidTargetError } from "../net/target.ts";
import { domainOf, type McpContext, reportUri, viewing } from "./context.ts";
import { PATHS } from "../report_urls.ts";

/** JSON-RPC error code the MCP specification gives "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

/** Registers the report resource template. */
export function registerReportResource(server: McpServer, ctx: McpContext): void {
  server.registerResource(
    "report",
    // Domains are not listed: which sites others scanned is not ours to publish.
    new ResourceTemplate("report://{domain}", { list: undefined }),
    {
      title: `${ctx.deps.service.title} report`,
      description:
        `The latest stored report of a domain (the same JSON as GET ${PATHS.reportJson}). ` +
        "Reading it never scans; use the scan_site tool for that.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const raw = Array.isArray(variables.domain) ? variables.domain[0] : variables.domain;
      let domain: string;
      try {
        domain = domainOf(decodeURIComponent(String(raw ?? "")));
      } catch (e) {
        if (e instanceof InvalidTargetError || e instanceof URIError) {
          throw new McpError(RESOURCE_NOT_FOUND, `Not a domain name: ${e.message}`);
        }
        throw e;
      }
      // Read and serialised in the app's queue of record views, like a report page.
      return await viewing(ctx, async () => {
        const stored = await ctx.deps.store.getScan(domain);
        if (!stored) {
          throw new McpError(
            RESOURCE_NOT_FOUND,
            `${domain} has never been scanned; call the scan_site tool first`,
            { uri: uri.href },
          );
        }
        return {
          contents: [{
            uri: reportUri(domain),
            mimeType: "application/json",
            text: JSON.stringify(stored.record),
          }],
        };
      });
    },
  );
}
