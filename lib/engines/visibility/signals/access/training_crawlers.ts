/**
 * `access.training_crawlers`: which model-training crawlers robots.txt allows. Reported, never
 * scored: blocking them is the owner's choice and does not hide the site from AI search.
 */
import { noFix, type SignalDef } from "../../signal.ts";
import { crawlersByRole } from "../../crawlers.ts";
import { SOURCES } from "../../sources.ts";

export const trainingCrawlers: SignalDef = {
  id: "access.training_crawlers",
  pillar: "access",
  title: "Training crawlers (your choice)",
  points: 0,
  scope: "page",
  learn: {
    what:
      "Some crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot and others) collect pages to train AI models, not to answer questions.",
    why:
      "Blocking them is a legitimate choice about your content; it does not remove you from AI search. We report it and do not score it.",
    how: "We list which training crawlers robots.txt allows or blocks, with the deciding line.",
    sources: [SOURCES.openai, SOURCES.anthropic, SOURCES.googleCrawlers, SOURCES.commonCrawl],
  },
  check(ctx) {
    const r = ctx.robots;
    if (r.state === "unreachable") {
      return { status: "unknown", detail: "robots.txt could not be read." };
    }
    // The training crawlers that count: verified on their vendors' pages, not retired tokens.
    const counted = new Set(crawlersByRole("training").map((c) => c.token));
    const training = r.crawlers.filter((c) => counted.has(c.token));
    const blocked = training.filter((c) => !c.allowed);
    return {
      status: "info",
      detail: blocked.length
        ? `robots.txt blocks ${blocked.length} of ${training.length} model-training crawlers (${
          blocked.map((c) => c.token).join(", ")
        }). That is a legitimate choice and does not lower the score; it does not hide you from AI search${
          blocked.some((c) => c.token === "Google-Extended")
            ? " (Google-Extended also keeps pages out of grounding in Gemini Apps and Vertex AI, but not out of Google Search or AI Overviews)"
            : ""
        }.`
        : `All ${training.length} model-training crawlers may read the site. Blocking them is a legitimate choice and would not lower the score.`,
      evidence: training.map((c) => `${c.token}: ${c.allowed ? "allowed" : "blocked"}`),
    };
  },
  fix: noFix,
};
