/**
 * A run, or a site's plan, as plain text: what MCP tools and the CLI print beside the structured
 * result. Every rate is "k of N (low-high%)"; a provider without a key says "not configured".
 */
import type { AnswerRun } from "./run_types.ts";
import type { planView } from "./view.ts";
import { rateText } from "./wilson.ts";

type PlanView = Awaited<ReturnType<typeof planView>>;

/** The plan: questions, providers, the estimate and the budgets left. */
export function planText(plan: PlanView): string {
  const lines = [
    `Answer presence of ${plan.domain}: ${plan.questions.length} question(s), each asked ` +
    `${plan.samples} time(s) of each configured provider${
      plan.sampling?.mode === "adaptive" ? ` (then more, up to ${plan.sampling.maxSamples})` : ""
    }${
      plan.sampling && !plan.sampling.meetsFloor
        ? `, below the published floor of ${plan.sampling.floor}`
        : ""
    }; answers through each vendor's API with web search, not its app.`,
    ...plan.questions.map((q, i) => `  ${i + 1}. ${q.text} (${q.basis})`),
    ...plan.providers.map((p) =>
      `  ${p.label}: ${
        p.configured
          ? `${p.model}, ${p.keySource === "account" ? "your key" : "the instance's key"}`
          : "not configured"
      }`
    ),
    `Estimated cost of a run: ${plan.estimate.calls} calls, about $${
      plan.estimate.usd.toFixed(4)
    } (an estimate from the vendors' published prices).`,
    `Calls left today: ${
      plan.budget.account
        ? `${Math.max(0, plan.budget.account.limit - plan.budget.account.used)} for this account, `
        : ""
    }${Math.max(0, plan.budget.global.limit - plan.budget.global.used)} on the instance's keys.`,
  ];
  return lines.join("\n");
}

/** A run's results, per provider. */
export function runText(
  run: Pick<AnswerRun, "id" | "domain" | "status" | "estimate" | "providers" | "problem">,
): string {
  if (run.status === "running") {
    return `Run ${run.id} of ${run.domain} is running (${run.estimate.calls} calls).`;
  }
  if (run.status === "failed") return `Run ${run.id} of ${run.domain} failed: ${run.problem}`;
  const lines = [`Answer presence of ${run.domain} (run ${run.id}):`];
  for (const p of run.providers) {
    if (p.status === "not_configured") {
      lines.push(`- ${p.label}: not configured (nothing asked).`);
      continue;
    }
    const o = p.overall;
    const l = p.rateLabel;
    lines.push(
      `- ${p.label}: cited ${rateText(o.cited)}; named ${rateText(o.mentioned)}; only others ` +
        `cited ${rateText(o.competitorOnly)}. ${p.detail}` +
        (l ? ` [${l.model}; ${l.surface}; N=${l.answers}]` : ""),
    );
    if (p.canary && p.canary.status !== "same") lines.push(`  Canary: ${p.canary.text}`);
    for (const v of p.voice ?? []) {
      if (!v.site) {
        lines.push(
          `  Competitor ${v.domain}: named ${rateText(v.mentioned)}, cited ${
            rateText(v.cited)
          }, first ${rateText(v.first)}.`,
        );
      }
    }
    for (const c of p.changes) {
      lines.push(
        `  Changed since the previous run: ${c.measure} ${c.direction} (${rateText(c.before)} -> ${
          rateText(c.after)
        })${c.question ? ` for "${c.question}"` : ""}.`,
      );
    }
    for (const n of p.causes?.notes ?? []) lines.push(`  ${n}`);
  }
  return lines.join("\n");
}
