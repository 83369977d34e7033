/**
 * The report as plain text (the CLI's output and the MCP tool's summary): what was read, then per
 * AI product and crawler the verified, spoofed and unverifiable hits with the status mix, the
 * disallowed fetches with their rule, spoofing networks, the most crawled and never-crawled pages.
 */
import { STATUS_CLASSES } from "./aggregate.ts";
import type { RangeListState } from "./ip_ranges.ts";
import type { ReadSummary } from "./read_log.ts";
import type { LogReport } from "./figures.ts";

/** The report in lines of text. */
export function reportText(
  summary: ReadSummary,
  report: LogReport,
  ranges: RangeListState[] = [],
): string {
  const out: string[] = [];
  const fmt = summary.format ?? "unknown";
  out.push(
    `Format: ${fmt}${
      summary.overridden
        ? ` (chosen; the content looks like ${summary.detected})`
        : summary.detected
        ? " (detected)"
        : ""
    }${summary.gzip ? ", gzip" : ""}`,
  );
  out.push(
    `Lines: ${summary.lines} read, ${summary.crawlerLines} from crawlers, ${summary.otherLines} others dropped, ${summary.unreadable} unreadable`,
  );
  for (const u of summary.unreadableLines.slice(0, 5)) out.push(`  line ${u.line}: ${u.why}`);
  for (const m of summary.messages) out.push(`Note: ${m}`);
  if (!report.period) {
    out.push("No crawler hits.");
    return out.join("\n");
  }
  out.push(`Period: ${report.period.from} to ${report.period.to} (${report.period.days} days)`);
  out.push(
    `Hits: ${report.totals.verified} verified, ${report.totals.spoofed} spoofed, ${report.totals.unverifiable} unverifiable`,
  );
  for (const p of report.products) {
    out.push("", `${p.vendor}`);
    for (const token of p.tokens) {
      const c = report.crawlers.find((x) => x.token === token)!;
      const mix = STATUS_CLASSES.filter((s) => c.status[s]).map((s) => `${s} ${c.status[s]}`).join(
        ", ",
      );
      out.push(
        `  ${token}: ${c.hits.verified} verified${
          mix ? ` (${mix})` : ""
        }, ${c.hits.spoofed} spoofed, ${c.hits.unverifiable} unverifiable; ${c.distinctPages} pages, ${c.bytes} bytes${
          c.lastSeen ? `, last seen ${c.lastSeen}` : ""
        }`,
      );
      for (const [why, n] of Object.entries(c.unverifiable)) {
        out.push(`    unverifiable (${n}): ${why}`);
      }
    }
  }
  if (report.disallowed.length) {
    out.push("", "Verified crawlers fetching paths robots.txt disallows for them:");
    for (const d of report.disallowed) {
      out.push(
        `  ${d.token} ${d.path}: ${d.hits} hit(s); robots.txt line ${d.rule.line}: ${d.rule.pattern}`,
      );
    }
  }
  if (report.spoofed.length) {
    out.push(
      "",
      "Spoofed hits (the User-Agent claims a crawler its vendor's addresses do not include):",
    );
    for (const s of report.spoofed) {
      out.push(
        `  ${s.token}: ${s.hits} from ${
          s.networks.map((n) => `${n.network} (${n.hits})`).join(", ")
        }`,
      );
    }
  }
  if (report.topPages.length) {
    out.push("", "Most crawled pages (verified):");
    for (const p of report.topPages.slice(0, 10)) {
      out.push(`  ${p.path}: ${p.hits} (${p.crawlers.join(", ")})`);
    }
  }
  if (report.neverCrawled.length) {
    out.push("", `Important pages no verified crawler fetched: ${report.neverCrawled.join(", ")}`);
  }
  for (const a of report.answers) {
    out.push(
      "",
      `${a.assistant}: ${a.cited} page(s) cited in its answers, ${a.citedAndFetched} of them fetched by ${
        a.crawlers.join(" or ")
      } (verified; ${a.fetched} pages fetched in all)`,
    );
    if (a.citedNotFetched.length) {
      out.push(`  cited, never fetched: ${a.citedNotFetched.join(", ")}`);
    }
  }
  const unavailable = ranges.filter((r) => r.from === "unavailable");
  if (ranges.length) {
    out.push(
      "",
      `Address lists: ${
        ranges.length - unavailable.length
      } loaded, ${unavailable.length} unavailable${
        unavailable.length ? ` (${unavailable.map((r) => r.fileName).join(", ")})` : ""
      }`,
    );
  }
  return out.join("\n");
}
