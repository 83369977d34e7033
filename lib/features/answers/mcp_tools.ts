/**
 * Answer presence over MCP (lib/features/answers/, docs/answer-presence.md): `answer_presence` (the plan:
 * questions, providers, estimated cost, budgets, the last runs), `run_answer_presence` (starts a
 * run) and `answer_presence_run` (a run's results). Under the same rules as the API: the account's
 * API key (its watched sites) or the operator's token, in the MCP request's own Authorization
 * header, never as an argument; the other tools stay anonymous.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { answersOf, type WithAnswers } from "./context.ts";
import { ownerOfBearer } from "./access.ts";
import { startRun } from "./run.ts";
import { ownedRun, siteAnswers } from "./site_answers.ts";
import { planText, runText } from "./summary.ts";
import {
  guarded,
  type McpContext,
  type McpDeps,
  type McpTool,
  refusal,
  toolResult,
} from "../../kit/mcp/context.ts";

const NEEDS_KEY = "Needs the account's API key (its watched sites) or the operator's token in " +
  "the MCP request's Authorization header (Bearer <key>).";

/** What the answer-presence tools need of the app: the feature (built by lib/app/server.ts). */
type AnswersMcpDeps = McpDeps & WithAnswers;

/** The answer-presence tools, in the order tools/list gives them: where the app built the feature. */
export const ANSWER_TOOLS: readonly McpTool<AnswersMcpDeps>[] = [
  { name: "answer_presence", offered: hasAnswers, register: registerAnswerPresence },
  { name: "run_answer_presence", offered: hasAnswers, register: registerRunAnswerPresence },
  { name: "answer_presence_run", offered: hasAnswers, register: registerAnswerPresenceRun },
];

function hasAnswers(deps: AnswersMcpDeps): boolean {
  return deps.answers !== undefined;
}

/** Answer presence and the owner behind the request's Authorization header. */
async function owner(ctx: McpContext<AnswersMcpDeps>) {
  const a = answersOf(ctx.deps);
  return { a, owner: await ownerOfBearer(ctx.authorization, a) };
}

const url = z.string().trim().min(1).max(2048).describe("The watched site (domain or URL).");

/** Registers answer_presence: the plan and the last runs. */
function registerAnswerPresence(server: McpServer, ctx: McpContext<AnswersMcpDeps>): void {
  server.registerTool("answer_presence", {
    title: "Answer presence: plan and last runs",
    description: "For a watched site: the questions asked of AI assistants (ChatGPT search, " +
      "Perplexity, Claude, Gemini) with their basis, which providers are configured, the " +
      "estimated cost of a run and the calls left today, and the last runs. Calls no vendor. " +
      NEEDS_KEY,
    inputSchema: { url },
    outputSchema: {
      plan: z.record(z.string(), z.unknown()),
      runs: z.array(z.record(z.string(), z.unknown())),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, (args) =>
    guarded(ctx, "answer_presence", async () => {
      try {
        const { a, owner: o } = await owner(ctx);
        const site = await siteAnswers(a, o, args.url);
        return toolResult(planText(site.plan), {
          plan: site.plan as unknown as Record<string, unknown>,
          runs: site.runs as unknown as Record<string, unknown>[],
        });
      } catch (error) {
        return refusal(error) ?? Promise.reject(error);
      }
    }));
}

/** Registers run_answer_presence: starts a run. */
function registerRunAnswerPresence(server: McpServer, ctx: McpContext<AnswersMcpDeps>): void {
  server.registerTool("run_answer_presence", {
    title: "Ask the AI assistants about a watched site",
    description: "Starts a run: each question is asked several times of each configured " +
      "provider, through their documented APIs; the answers are counted (named, cited, only " +
      "competitors cited, k of N with 95% intervals) and set beside the site's crawler verdicts. " +
      "Costs money on the vendors' side (see answer_presence for the estimate) and counts in the " +
      "day's budgets; a run over budget is refused with nothing spent. Returns the run's id; " +
      `read it with answer_presence_run once done (a few minutes). ${NEEDS_KEY}`,
    inputSchema: { url },
    outputSchema: { run: z.record(z.string(), z.unknown()) },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  }, (args) =>
    guarded(ctx, "run_answer_presence", async () => {
      try {
        const { a, owner: o } = await owner(ctx);
        const { run } = await startRun(a, o, args.url, "mcp");
        return toolResult(
          `Started run ${run.id} of ${run.domain}: ${run.estimate.calls} calls, about $${
            run.estimate.usd.toFixed(4)
          } (an estimate). Read it with answer_presence_run.`,
          { run: run as unknown as Record<string, unknown> },
        );
      } catch (error) {
        return refusal(error) ?? Promise.reject(error);
      }
    }));
}

/** Registers answer_presence_run: one run's results. */
function registerAnswerPresenceRun(server: McpServer, ctx: McpContext<AnswersMcpDeps>): void {
  server.registerTool("answer_presence_run", {
    title: "A run's answer presence",
    description: "One run's results per provider (and, with answers: true, what each assistant " +
      `said and cited). ${NEEDS_KEY}`,
    inputSchema: {
      url,
      runId: z.string().trim().max(64).describe("The run's id (run_answer_presence)."),
      answers: z.boolean().optional().describe("Include every answer's text and sources."),
    },
    outputSchema: {
      run: z.record(z.string(), z.unknown()),
      kept: z.record(z.string(), z.unknown()).optional(),
      answers: z.array(z.record(z.string(), z.unknown())).optional(),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, (args) =>
    guarded(ctx, "answer_presence_run", async () => {
      try {
        const { a, owner: o } = await owner(ctx);
        const result = await ownedRun(a, o, args.url, args.runId, args.answers ?? false);
        return toolResult(runText(result.run), result as unknown as Record<string, unknown>);
      } catch (error) {
        return refusal(error) ?? Promise.reject(error);
      }
    }));
}
