/**
 * Every fact README.md and docs/ print that the code knows, read from the code itself: the
 * registries (crawlers, signals and pillars, gates, Google's features, the formats we read), the
 * services and their defaults, the limits and caps. Markdown names them with the markers of
 * markers.ts; `deno task facts` writes them and tests/facts_test.ts fails when a file is stale.
 *
 * A fact is added here by name and used in a file as `<!--fact:NAME-->...<!--/fact-->` (inline)
 * or between `<!-- facts:NAME -->` and `<!-- /facts:NAME -->` (a block).
 */
import { type CrawlerRole, CRAWLERS } from "../../../lib/engines/visibility/crawlers.ts";
import { gateTexts, registeredSignals } from "../../../lib/engines/visibility/learn.ts";
import { PILLARS } from "../../../lib/engines/visibility/signals/registry.ts";
import { scoringDocs } from "../../../lib/engines/visibility/scoring_docs.ts";
import { standards } from "../../../lib/engines/visibility/standards.ts";
import {
  featureTableMarkdown,
  googleFeatures,
} from "../../../lib/engines/structured/google/registry.ts";
import {
  SERVICE_DEFAULTS,
  SERVICE_NAMES,
  type ServiceName,
} from "../../../lib/kit/service_defaults.ts";
import { SERVICES } from "../../../lib/app/server.ts";
import { CAPS, LIMITS } from "../../../lib/kit/limits/limits.ts";
import { settingDefaults } from "../../../lib/kit/config.ts";
import { probedCrawlers } from "../../../lib/engines/visibility/edge_probe.ts";
import type { FactSource } from "./markers.ts";
import { analyse, validLlms } from "../../helpers/verdict_env.ts";

const WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
];

/** A count as prose writes it: a word up to twelve, digits past it. */
export function countWord(n: number): string {
  return WORDS[n] ?? String(n);
}

/** A list of names as prose writes it: `A, B and C`. */
export function andList(items: readonly string[], word = "and"): string {
  return items.length < 2
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
}

/** `A, B or C`. */
const orList = (items: readonly string[]) => andList(items, "or");

/** A title inside a sentence: its first letter lower-cased, unless the first word is an acronym. */
function inProse(title: string): string {
  const first = title.split(" ")[0];
  return first === first.toUpperCase() ? title : title[0].toLowerCase() + title.slice(1);
}

function crawlerFacts(): Record<string, string> {
  const roles: CrawlerRole[] = ["search", "user", "training", "ads"];
  // The search crawlers the score counts: verified on their vendors' pages, not retired.
  const search = CRAWLERS.filter((c) => c.role === "search" && c.counts);
  return {
    "crawlers": String(CRAWLERS.length),
    "crawlers.verified": String(CRAWLERS.filter((c) => c.verified !== false).length),
    ...Object.fromEntries(
      roles.map((r) => [`crawlers.${r}`, String(CRAWLERS.filter((c) => c.role === r).length)]),
    ),
    "crawlers.probed": String(probedCrawlers().length),
    "crawlers.search.major": search.filter((c) => c.major).map((c) => c.token).join(", "),
    "crawlers.search.minor": search.filter((c) => !c.major).map((c) => c.token).join(", "),
  };
}

function scoringFacts(): Record<string, string> {
  const signals = registeredSignals();
  const facts: Record<string, string> = {
    "pillars": countWord(PILLARS.length),
    "pillars.names": andList(PILLARS.map((p) => inProse(p.title))),
    "signals": String(signals.length),
    "signals.scored": String(signals.filter((s) => s.points > 0).length),
    "gates": countWord(gateTexts().length),
    "weights.sum": String(PILLARS.reduce((n, p) => n + p.weight, 0)),
  };
  for (const p of PILLARS) {
    facts[`weight.${p.id}`] = String(p.weight);
    facts[`points.${p.id}`] = String(p.signals.reduce((n, s) => n + s.points, 0));
    for (const s of p.signals) facts[`points.${s.id}`] = String(s.points);
  }
  return facts;
}

function googleFacts(): Record<string, string> {
  const features = googleFeatures();
  const count = (status: string) => String(features.filter((f) => f.status === status).length);
  return {
    "google.features": String(features.length),
    "google.supported": count("supported"),
    "google.limited": count("limited"),
    "google.deprecated": count("deprecated"),
    "formats": countWord(standards().length),
  };
}

function limitFacts(): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [`limits.${k}`, String(v)])),
    ...Object.fromEntries(Object.entries(CAPS).map(([k, v]) => [`caps.${k}`, String(v)])),
  };
}

/**
 * What blocking one crawler or missing llms.txt costs on the in-memory test page of
 * tests/helpers/verdict_env.ts (docs/scoring.md, "Why these weights"): its score with a valid
 * llms.txt and nothing blocked, without llms.txt, and with one crawler blocked by robots.txt.
 */
function verdictFacts(): Record<string, string> {
  const llms = { ok: true as const, result: validLlms() };
  const open = "User-agent: *\nAllow: /\n";
  const facts: Record<string, string> = {
    "verdicts.base": String(analyse({ robots: open, llms }).score),
    "verdicts.noLlms": String(analyse({ robots: open }).score),
  };
  for (const token of ["DuckAssistBot", "OAI-SearchBot", "Googlebot"]) {
    facts[`verdicts.blocked.${token}`] = String(
      analyse({ robots: `User-agent: ${token}\nDisallow: /\n`, llms }).score,
    );
  }
  return facts;
}

/** Defaults of the configuration a self-hoster can change (docs/configuration.md). */
function configFacts(): Record<string, string> {
  const facts: Record<string, string> = {};
  // Each setting's default as its variable takes it: `env.NAME`, or `env.NAME.code` in backticks.
  for (const [name, value] of Object.entries(settingDefaults())) {
    facts[`env.${name}`] = String(value);
    facts[`env.${name}.code`] = `\`${value}\``;
  }
  return facts;
}

function serviceFacts(): Record<string, string> {
  const each = (text: (name: ServiceName) => string) => SERVICE_NAMES.map(text).join(", ");
  return {
    "services.names": orList(SERVICE_NAMES.map((name) => `\`${name}\``)),
    "services.ports": each((name) => `${SERVICE_DEFAULTS[name].port} for \`${name}\``),
    "services.kvPaths": each((name) => `\`${SERVICE_DEFAULTS[name].kvPath}\` (\`${name}\`)`),
    "services.sisters": each((name) =>
      `\`http://localhost:${SERVICE_DEFAULTS[SERVICE_DEFAULTS[name].sister].port}/\` (\`${name}\`)`
    ),
    ...Object.fromEntries(
      SERVICE_NAMES.flatMap((name) => [
        [`service.${name}.title`, SERVICES[name].title],
        [`service.${name}.port`, String(SERVICE_DEFAULTS[name].port)],
      ]),
    ),
  };
}

/** The deno task that starts a service (the start task, or the one that sets its SERVICE). */
function startTask(name: string, tasks: Record<string, string>): string {
  if (name === SERVICE_NAMES[0]) return "deno task start";
  const task = Object.entries(tasks).find(([, cmd]) => cmd.startsWith(`SERVICE=${name} `));
  return task ? `deno task ${task[0]}` : `SERVICE=${name} deno task start`;
}

/** The services table: each service, how to start it, and where it listens and keeps its data. */
export function servicesTable(tasks: Record<string, string>): string {
  const rows = SERVICE_NAMES.map((name) => {
    const d = SERVICE_DEFAULTS[name];
    return [
      SERVICES[name].title,
      `\`${name}\`${name === SERVICE_NAMES[0] ? " (default)" : ""}`,
      `\`${startTask(name, tasks)}\``,
      `http://127.0.0.1:${d.port}/`,
      `\`${d.kvPath}\``,
      `\`${SERVICES[name].keyPrefix}...\``,
    ];
  });
  const head = ["service", "`SERVICE=`", "start it", "listens on", "KV file", "API keys"];
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The README's two commands, with the address the first one serves. */
export function quickStart(): string {
  const name = SERVICE_NAMES[0];
  const url = `http://127.0.0.1:${SERVICE_DEFAULTS[name].port}/`;
  return [
    "```sh",
    `npx -y deno@2.9.6 task start    # serve the ${SERVICES[name].title} on ${url}`,
    "npx -y deno@2.9.6 task test     # install the test tools, then run the whole suite offline",
    "```",
  ].join("\n");
}

/** Every generated fact: blocks and inline values, read from the code now. */
export async function knownFacts(): Promise<FactSource> {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../../../deno.json", import.meta.url)),
  );
  return {
    blocks: {
      "scoring": scoringDocs,
      "google-features": featureTableMarkdown,
      "services": () => servicesTable(config.tasks),
      "quick-start": quickStart,
    },
    inline: {
      ...crawlerFacts(),
      ...scoringFacts(),
      ...googleFacts(),
      ...limitFacts(),
      ...configFacts(),
      ...verdictFacts(),
      ...serviceFacts(),
    },
  };
}
