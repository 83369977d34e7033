/**
 * The AI Visibility Checker over MCP: how its report reads as text for an agent, the
 * `improve_ai_visibility` prompt (scan -> issues -> a plan), and
 * `explain_issue`, which takes one issue of a stored report and gives everything needed to fix it
 * (the fix, why it matters, the signal's evidence, its pillar, its rank, and what the check means:
 * the same "learn more" texts as the report page's /learn/<id>, from lib/engines/visibility/learn.ts).
 */
import { capLiftText } from "../../engines/visibility/report_texts.ts";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { renderViewText } from "./render_view_text.ts";
import {
  type Issue,
  IssueSchema,
  type Pillar,
  type ScanRecord,
  type Signal,
  SignalSchema,
} from "../../engines/visibility/record.ts";
import {
  domainOf,
  guarded,
  type McpContext,
  type McpServiceAdapter,
  reportUri,
  toolError,
  toolResult,
} from "../../kit/mcp/context.ts";
import { gateText, learnEntry } from "../../engines/visibility/learn.ts";
import { capOf } from "../../engines/visibility/score.ts";
import { learnPath, PATHS } from "../../kit/report_urls.ts";
import { formatPagesTable, sampledPages } from "../../engines/visibility/audit/format_pages.ts";

/** The visibility service's MCP adapter. */
export const visibilityMcp: McpServiceAdapter = {
  serverName: "ai-visibility-checker",
  summarise: (record) => summarise(record as ScanRecord),
  tools: [{ name: "explain_issue", register: registerExplainIssue }],
  registerPrompts: (server) => registerPrompts(server),
  instructions: "A report has a 0-100 score, an A-F grade, six weighted pillars of signals, " +
    "topIssues ordered by what to fix first (each with a concrete fix for that site) and off-site " +
    "presence (Wikidata, Wikipedia, Common Crawl). To act on an issue, call explain_issue with " +
    "the domain and the issue's id.",
};

/** A readable summary of a visibility record: score, grade, pillars, the top issues. */
export function summarise(record: ScanRecord, maxIssues = 5): string {
  const head = `AI visibility report for ${record.domain} (scanned ${record.scannedAt})`;
  const r = record.result;
  if (!r) {
    return `${head}\nThe scan failed: the home page could not be fetched, so there is no score. ` +
      "Check that the site is up and publicly reachable, then scan again later.";
  }
  const lines = [head, `Score ${r.score}/100, grade ${r.grade}: ${r.label}`];
  const cap = capOf(r);
  if (cap) {
    const gate = gateText(cap.gateId);
    lines.push(
      `What holds it back most: the score is capped at ${cap.cap} because ${
        gate?.name ?? cap.gateId
      }. ${gate?.why ?? ""} ${capLiftText(r) ?? "Fix that first."}`,
    );
    if (cap.evidence.length) lines.push(`Evidence: ${cap.evidence.join("; ")}.`);
    if (gate) lines.push(`It lifts when: ${gate.lift}`);
  }
  lines.push("", "Pillars:");
  for (const p of r.pillars) {
    lines.push(`- ${p.title}: ${p.score}/100 (weight ${p.weight})`);
  }
  lines.push("");
  if (r.topIssues.length === 0) lines.push("No issues to fix.");
  else {
    lines.push(`Top issues (${r.topIssues.length} in all, most worth fixing first):`);
    r.topIssues.slice(0, maxIssues).forEach((issue, i) => {
      lines.push(
        `${i + 1}. [${issue.impact}, effort ${issue.fix.effort}] ${issue.title} (id: ${issue.id})`,
      );
    });
    if (r.topIssues.length > maxIssues) {
      lines.push(`... and ${r.topIssues.length - maxIssues} more in the structured report.`);
    }
    lines.push("", "Call explain_issue with the domain and an issue id for the full fix.");
  }
  const sample = sampledPages(record);
  if (sample && sample.length > 1) {
    lines.push(
      "",
      `Sampled pages (${sample.length}, the checks each fails):`,
      formatPagesTable(sample),
    );
  }
  const view = renderViewText(record.render);
  if (view.length) lines.push("", ...view);
  if (record.offSite) {
    const o = record.offSite;
    lines.push(
      "",
      `Off-site: Wikidata ${o.wikidata.status}, Wikipedia ${o.wikipedia.status}, ` +
        `Common Crawl ${o.commonCrawl.status}.`,
    );
  }
  return lines.join("\n");
}

const PillarSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  score: z.number().describe("0-100: points earned over points observable in this pillar."),
  points: z.number().describe("Points this pillar contributes to the overall score."),
  weight: z.number().describe("Share of the overall score, 0-100."),
});

const LearnSchema = z.object({
  what: z.string(),
  why: z.string(),
  how: z.string(),
  sources: z.array(z.object({ by: z.string(), title: z.string(), url: z.string() })),
  path: z.string().describe(`The page on this server explaining the check ("${PATHS.learn}").`),
  url: z.string().nullable().describe("The same page's full address, when PUBLIC_URL is set."),
});

/** Registers explain_issue. */
function registerExplainIssue(server: McpServer, ctx: McpContext): void {
  server.registerTool("explain_issue", {
    title: "Explain one issue and its fix",
    description: "Explains one issue of a site's stored report in depth: what to change, why it " +
      "matters for AI search and assistants, exactly how (site-specific: robots.txt lines, JSON-LD " +
      "to paste...), the effort, the evidence the scan observed, the pillar it belongs to and its " +
      "rank among the report's issues. Use an id from the report's topIssues (scan_site or " +
      "get_report). Reads the stored report only; it never scans.",
    inputSchema: {
      domain: z.string().trim().min(1).max(2048)
        .describe('The scanned domain ("example.com"; a URL is accepted too).'),
      issueId: z.string().trim().min(1).max(200)
        .describe('An issue id from the report\'s topIssues, e.g. "access.search_crawlers".'),
    },
    outputSchema: {
      domain: z.string(),
      scannedAt: z.string().describe("When the report was made (ISO 8601)."),
      rank: z.number().int().describe("1 = the issue most worth fixing first."),
      issueCount: z.number().int().describe("How many issues the report has."),
      issue: IssueSchema.describe(
        "The issue as in topIssues: detail (what was observed) and fix {what, why, how, effort}.",
      ),
      signal: SignalSchema.nullable()
        .describe("The signal behind the issue: points, evidence, and the score cap if any."),
      pillar: PillarSummarySchema.nullable().describe("The pillar the signal belongs to."),
      learn: LearnSchema.nullable().describe(
        "What the check means in plain words (the report page's /learn/<id>): what it is, why AI " +
          "systems care, how it is tested, and the vendors' documentation it rests on.",
      ),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  }, ({ domain: input, issueId }) =>
    guarded(ctx, "explain_issue", async () => {
      const domain = domainOf(input);
      const stored = await ctx.deps.store.getScan(domain);
      if (!stored) {
        return toolError(
          `${domain} has never been scanned, so it has no issues to explain yet. ` +
            `Call scan_site with url "${domain}" first.`,
        );
      }
      const record = stored.record as ScanRecord;
      if (!record.result) {
        return toolError(
          `The latest scan of ${domain} (${record.scannedAt}) failed: the home page could not be ` +
            "fetched, so there are no issues to explain. Scan it again once the site is reachable.",
        );
      }
      const issues = record.result.topIssues;
      const index = issues.findIndex((i) => i.id === issueId);
      if (index < 0) {
        return toolError(
          `"${issueId}" is not an issue of ${domain}'s report. ` +
            (issues.length
              ? `Valid ids: ${issues.map((i) => i.id).join(", ")}.`
              : "The report has no issues to fix."),
        );
      }
      const issue = issues[index];
      const found = findSignal(record.result.pillars, issue.id);
      const pillar = found
        ? {
          id: found.pillar.id,
          title: found.pillar.title,
          score: found.pillar.score,
          points: found.pillar.points,
          weight: found.pillar.weight,
        }
        : null;
      const signal = found?.signal ?? null;
      const entry = learnEntry(issue.id);
      const learn = entry
        ? {
          what: entry.what,
          why: entry.why,
          how: entry.how,
          sources: entry.sources,
          path: learnPath(entry.id),
          url: ctx.deps.config.publicUrl
            ? new URL(learnPath(entry.id), ctx.deps.config.publicUrl).href
            : null,
        }
        : null;
      return toolResult(
        explainText(domain, issue, index, issues.length, signal, pillar, learn),
        {
          domain,
          scannedAt: record.scannedAt,
          rank: index + 1,
          issueCount: issues.length,
          issue,
          signal,
          pillar,
          learn,
        },
      );
    }));
}

function findSignal(pillars: Pillar[], id: string): { pillar: Pillar; signal: Signal } | null {
  for (const pillar of pillars) {
    const signal = pillar.signals.find((s) => s.id === id);
    if (signal) return { pillar, signal };
  }
  return null;
}

function explainText(
  domain: string,
  issue: Issue,
  index: number,
  count: number,
  signal: Signal | null,
  pillar: z.infer<typeof PillarSummarySchema> | null,
  learn: z.infer<typeof LearnSchema> | null,
): string {
  const lines = [
    `${issue.title} (${issue.id}) on ${domain}`,
    `Issue ${index + 1} of ${count}; impact ${issue.impact}; effort ${issue.fix.effort} ` +
    "(S = minutes, M = hours, L = days); status " + issue.status + ".",
    "",
    `Observed: ${issue.detail}`,
  ];
  if (pillar) {
    lines.push(
      `Pillar: ${pillar.title}, scoring ${pillar.score}/100 with weight ${pillar.weight} ` +
        `(it contributes ${pillar.points} of the overall score).`,
    );
  }
  if (signal) {
    if (signal.maxPoints > 0) {
      lines.push(`This signal earned ${signal.points} of ${signal.maxPoints} points.`);
    }
    if (signal.gate) {
      lines.push(`While it fails, the overall score is capped at ${signal.gate.cap}.`);
    }
    if (signal.evidence.length) {
      lines.push("Evidence:", ...signal.evidence.slice(0, 20).map((e) => `- ${e}`));
    }
  }
  lines.push(
    "",
    `What to do: ${issue.fix.what}`,
    `Why it matters: ${issue.fix.why}`,
    "How:",
    issue.fix.how,
  );
  if (learn) {
    lines.push(
      "",
      `About this check: ${learn.what}`,
      `Why AI systems care: ${learn.why}`,
      `How it is tested: ${learn.how}`,
      ...learn.sources.map((src) => `Source: ${src.title} (${src.by}) ${src.url}`),
      `Explained on the web at ${learn.url ?? learn.path}.`,
    );
  }
  lines.push("", `The full report is the resource ${reportUri(domain)}.`);
  return lines.join("\n");
}

/** Registers the improve_ai_visibility prompt: scan -> issues -> a plan. */
export function registerPrompts(server: McpServer): void {
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
