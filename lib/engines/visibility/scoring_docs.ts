/**
 * The generated part of docs/scoring.md: every pillar with its weight and signals, every gate with
 * its cap, condition and what lifts it, every source the signals cite, every crawler of the
 * registry and every format we read, each with the day it was checked, all read from the data
 * (the signal registry, crawlers_registry.ts, standards.ts). The file holds it between two markers;
 * tests/visibility/scoring_docs_test.ts fails when they disagree.
 *
 * Regenerate: `deno run --allow-read --allow-write --allow-run lib/engines/visibility/scoring_docs.ts`
 * (writes docs/scoring.md between the markers, then runs `deno fmt` on it).
 */
import { CRAWLERS } from "./crawlers.ts";
import { gateTexts, registeredSignals } from "./learn.ts";
import { standards } from "./standards.ts";
import type { LearnSource } from "./signal.ts";
import { PILLARS } from "./signals/registry.ts";

/** The markers around the generated part of docs/scoring.md. */
export const DOCS_BEGIN =
  "<!-- generated from lib/engines/visibility/signals/registry.ts: begin -->";
export const DOCS_END = "<!-- generated from lib/engines/visibility/signals/registry.ts: end -->";

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
      `[${new URL(c.docs).hostname}](${c.docs})`,
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

/**
 * The text with its generated part replaced by {@link scoringDocs}; throws when a marker is
 * missing.
 */
export function withScoringDocs(text: string): string {
  const begin = text.indexOf(DOCS_BEGIN);
  const end = text.indexOf(DOCS_END);
  if (begin < 0 || end < begin) throw new Error("docs/scoring.md lacks the generated-part markers");
  return `${text.slice(0, begin + DOCS_BEGIN.length)}\n\n${scoringDocs()}\n\n${text.slice(end)}`;
}

/**
 * A Markdown text with each table row's cells trimmed and separator rows reduced to `---`, so
 * that a table compares equal before and after `deno fmt` pads it.
 */
export function normaliseTables(text: string): string {
  return text.split("\n").map((line) => {
    if (!line.startsWith("|")) return line.trimEnd();
    const cells = line.slice(1, line.endsWith("|") ? -1 : undefined).split(/(?<!\\)\|/)
      .map((c) => c.trim());
    return cells.every((c) => /^:?-+:?$/.test(c))
      ? cells.map(() => "---").join("|")
      : cells.join("|");
  }).join("\n");
}

if (import.meta.main) {
  const path = new URL("../../../docs/scoring.md", import.meta.url);
  await Deno.writeTextFile(path, withScoringDocs(await Deno.readTextFile(path)));
  await new Deno.Command(Deno.execPath(), { args: ["fmt", path.pathname] }).output();
}
