/**
 * Code in hand over MCP: `validate_code` checks pasted HTML or JSON-LD without fetching anything,
 * through the same checks, caps and per-IP pool as POST /api/validate (lib/features/validate/
 * validate_request.ts), offered by the services that validate code.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  DeprecationSchema,
  EligibilitySchema,
  FindingSchema,
  GeneratedSchema,
  type Result,
  type SchemaScanRecord,
} from "../../engines/structured/record.ts";
import { VALIDATE_LIMIT } from "../../kit/limits/limits.ts";
import {
  adapterOf,
  guarded,
  type McpContext,
  type McpTool,
  toolError,
  toolResult,
} from "../../kit/mcp/context.ts";
import { MAX_CODE_BYTES } from "./validate_code.ts";
import { ValidateInputError, validateRequest } from "./validate_request.ts";

/** The validate tools: offered where the service validates code in hand. */
export const VALIDATE_TOOLS: readonly McpTool[] = [
  {
    name: "validate_code",
    offered: (deps) => deps.service.validatesCode === true,
    register: registerValidateCode,
  },
];

/** Registers validate_code: pasted HTML or JSON-LD, analysed offline. */
function registerValidateCode(server: McpServer, ctx: McpContext): void {
  server.registerTool("validate_code", {
    title: "Validate structured-data code",
    description: "Checks pasted HTML or JSON-LD like the Rich Results Test's Code tab, without " +
      "fetching anything: the items found, the errors and warnings (each with a path and how to " +
      "fix it), rich-result eligibility per item and Google feature, and the generated JSON-LD. " +
      `Send exactly one of html or jsonld (at most ${MAX_CODE_BYTES} bytes). Limited to ` +
      `${VALIDATE_LIMIT} per hour per caller IP, apart from the scan limits.`,
    inputSchema: {
      html: z.string().max(MAX_CODE_BYTES * 2).optional().describe("A whole page or a fragment."),
      jsonld: z.string().max(MAX_CODE_BYTES * 2).optional()
        .describe("JSON-LD text (one object, an array or a @graph)."),
      url: z.string().max(2048).optional()
        .describe("The URL the code stands for (relative URLs resolve against it)."),
    },
    outputSchema: {
      url: z.string(),
      summary: z.record(z.string(), z.json()),
      eligibility: z.array(EligibilitySchema),
      findings: z.array(FindingSchema),
      deprecated: z.array(DeprecationSchema),
      script: z.string(),
      graph: GeneratedSchema.shape.graph,
      fillIn: GeneratedSchema.shape.fillIn,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, ({ html, jsonld, url }) =>
    guarded(ctx, "validate_code", async () => {
      let outcome;
      try {
        // Analysed in a scan thread; the answer is bounded (lib/features/validate/validate_job.ts).
        outcome = await validateRequest(ctx.deps, ctx.ip, { input: { html, jsonld, url } });
      } catch (e) {
        if (e instanceof ValidateInputError) return toolError(e.message);
        throw e;
      }
      const r = (JSON.parse(outcome.json) as { result: Result }).result;
      const record: SchemaScanRecord = {
        domain: new URL(r.page.finalUrl).hostname,
        url: r.page.finalUrl,
        status: "ok",
        scannedAt: new Date(ctx.deps.now()).toISOString(),
        result: r,
      };
      return toolResult(
        adapterOf(ctx.deps.service).summarise(record).replace(
          /^Structured data of .*$/m,
          "Structured data of the code",
        ),
        {
          url: r.page.finalUrl,
          summary: r.summary,
          eligibility: r.eligibility ?? [],
          findings: r.findings,
          deprecated: r.deprecated,
          script: r.generated.script,
          graph: r.generated.graph,
          fillIn: r.generated.fillIn,
        },
      );
    }));
}
