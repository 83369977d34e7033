/**
 * The generated part of docs/scoring.md: every pillar with its weight and signals, every gate with
 * its cap, condition and what lifts it, every source the signals cite, every crawler of the
 * registry and every format we read, each with the day it was checked, all read from the data
 * (the signal registry, crawlers_registry.ts, standards.ts). `deno task facts` writes it between
 * the file's `facts:scoring` markers; tests/facts_test.ts fails when the file is stale.
 */
import { CRAWLERS } from "./crawlers.ts";
import { gateTexts, registeredSignals } from "./learn.ts";
import { standards } from "./standards.ts";
import type { LearnSource } from "./signal.ts";
import { PILLARS } from "./signals/registry.ts";

/** A Markdown table cell: one line, pipes escaped. */
function cell(text: string | number): string {
  return String(text).replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
}

function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The generated Markdown (between the markers, markers excluded). */
export function scoringDocs(): string {
  const signals = registeredSignals();
  const pillars = table(
    ["pillar", "weight", "signal", "id", "points", "reads", "can raise"],
    PILLARS.flatMap((p) =>
      p.signals.map((s) => [
        `${p.title} (\`${p.id}\`)`,
        p.weight,
        s.title,
        `\`${s.id}\``,
        s.points || "not scored",
        s.scope === "site" ? "the site audit's sample" : "the home page",
        s.gate ? `\`${s.gate.id}\` (cap ${s.gate.cap})` : "",
      ])
    ),
  );
  const gates = table(
    ["gate", "cap", "raised by", "when", "it lifts when"],
    gateTexts().map((g) => [
      `\`${g.id}\``,
      g.cap,
      g.signals.map((id) => `\`${id}\``).join(", "),
      g.when,
      g.lift,
    ]),
  );
  const sources = new Map<string, { source: LearnSource; citedBy: string[] }>();
  for (const s of signals) {
    for (const src of s.learn.sources) {
      const seen = sources.get(src.url);
      if (seen) seen.citedBy.push(s.id);
      else sources.set(src.url, { source: src, citedBy: [s.id] });
    }
  }
  const sourceTable = table(
    ["source", "by", "checked on", "cited by"],
    [...sources.values()].map(({ source, citedBy }) => [
      `[${source.title}](${source.url})`,
      source.by,
      source.checked,
      citedBy.map((id) => `\`${id}\``).join(", "),
    ]),
  );
  const robotsWords = { yes: "yes", may_ignore: "may ignore it", not_stated: "not stated" };
  const crawlers = table(
    [
      "crawler",
      "vendor",
      "purpose",
      "judged as",
      "follows robots.txt",
      "source",
      "addresses",
      "checked on",
    ],
    CRAWLERS.map((c) => [
      `\`${c.token}\``,
      c.vendor,
      c.purpose,
      c.role,
      robotsWords[c.robotsTxt],
      `[${new URL(c.url).hostname}](${c.url})`,
      c.ipRanges ? `[list](${c.ipRanges})` : "",
      c.checked,
    ]),
  );
  const formats = table(
    ["format", "version we implement", "what we read", "source", "checked on"],
    standards().map((f) => [f.title, f.version, f.reads, `[${f.by}](${f.url})`, f.checked]),
  );
  return [
    "### Signals",
    "",
    pillars,
    "",
    "### Gates",
    "",
    gates,
    "",
    "### Sources",
    "",
    sourceTable,
    "",
    "### Crawlers",
    "",
    crawlers,
    "",
    "### Formats we read",
    "",
    formats,
  ].join("\n");
}
