/**
 * MCP resources and prompts: a domain's stored report as the resource `report://{domain}`, and the
 * `improve_ai_visibility` prompt that walks an agent through scan -> issues -> a plan.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { InvalidTargetError } from "../net/target.ts";
import { domainOf, type McpContext, reportUri } from "./context.ts";

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
      description: "The latest stored report of a domain (the same JSON as GET " +
        "/api/report/{domain}.json). Reading it never scans; use the scan_site tool for that.",
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
    },
  );
}

/** Registers the improve_ai_visibility prompt. */
export function registerPrompts(server: McpServer, ctx: McpContext): void {
  if (!ctx.deps.service.mcpPrompts) return;
  server.registerPrompt("improve_ai_visibility", {
    title: "Improve a site's AI visibility",
    description: "Scan a site, then turn its top issues into a prioritised, concrete action plan.",
    argsSchema: {
      domain: z.string().trim().min(1).max(2048).describe('The site, e.g. "example.com".'),
    },
  }, ({ domain }) => ({
    description: `Improve the AI visibility of ${domain}`,
    messages: [{
      role: "user",
      content: {
        type: "text",
        text: [
          `Help me make ${domain} more visible to AI search engines and assistants.`,
          "",
          `1. Call the scan_site tool with url "${domain}". If it answers that the scan is ` +
          "still running, wait a few seconds and call get_report with the domain it names.",
          "2. Summarise the score, the grade and the weakest pillars in two or three sentences.",
          "3. For each of the first five topIssues, call explain_issue and write: what to change, " +
          "why it matters, the exact change (copy robots.txt lines or JSON-LD verbatim), and the " +
          "effort.",
          "4. End with the order in which to do them. Issues whose impact is critical cap the " +
          "score: they come first.",
          "",
          "Do not call scan_site again with forceRescan unless I say I changed the site: new " +
          "scans are rate limited.",
        ].join("\n"),
      },
    }],
  }));
}
