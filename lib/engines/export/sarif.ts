/**
 * A stored record as SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the
 * format GitHub code scanning reads (its supported subset: https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning,
 * checked 2026-11-26). One source for the CLI (`--format sarif`, `--out x.sarif`), the API
 * (GET /api/report/<domain>.sarif) and the GitHub Action (action.yml).
 *
 * Each failing or warning check is a result: its rule id (the signal's id, or the schema finding's
 * rule), its level (fail/error -> "error", warn/warning -> "warning"), its message (what was
 * observed) and the URL it concerns. Each rule carries its help text: the learn page's what, why
 * and how we test it (visibility), or what the rule family checks (schema), and the page's URL.
 *
 * Where a result points: code scanning needs a file in the repository, and a web check concerns a
 * URL. The URL's path becomes a repository-relative path (`/` -> `index.html`, `/robots.txt` ->
 * `robots.txt`), under `pathPrefix` when the site's files live in a folder (e.g. `public/`); the
 * live URL is in the message and in the result's `properties.url`. For robots.txt checks the line
 * the evidence names is the region.
 */
import { createHash } from "node:crypto";
import { PRODUCT } from "../../kit/config.ts";
import type {
  ExportInput,
  SarifOptions,
  SarifParts,
  SarifResult,
  SarifRule,
} from "../../service.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";

export type { SarifOptions, SarifParts, SarifResult, SarifRule };

/** The schema URI GitHub's examples use for SARIF 2.1.0. */
export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

/** The most results one export holds (GitHub takes up to 25,000 per run). */
export const MAX_SARIF_RESULTS = 1000;

/** The SARIF log of a record, as text. */
export function recordToSarif(input: ExportInput, options: SarifOptions = {}): string {
  const record = input.record;
  const title = input.service.words.title;
  // Each service says which of its checks are results and what their rules' help is.
  const { rules, results } = input.service.exports.sarif(input, options);
  const base = httpBase(options.learnBase);
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: title,
          semanticVersion: PRODUCT.version,
          ...(base ? { informationUri: `${base}/` } : {}),
          rules,
        },
      },
      automationDetails: { id: `${input.service.name}/${record.domain}/` },
      originalUriBaseIds: {
        "%SRCROOT%": {
          description: {
            text: "The repository the site is deployed from; paths are the URL paths of the " +
              "scanned site" + (options.pathPrefix ? ` under ${options.pathPrefix}` : "") + ".",
          },
        },
      },
      invocations: [{
        executionSuccessful: record.status === "ok",
        endTimeUtc: record.scannedAt,
        ...(record.status === "failed"
          ? {
            toolExecutionNotifications: [{
              level: "error",
              message: {
                text: `The scan failed: ${input.failure ?? "the site could not be read"}`,
              },
            }],
          }
          : {}),
      }],
      results: results.slice(0, MAX_SARIF_RESULTS),
      properties: {
        domain: record.domain,
        scannedAt: record.scannedAt,
        ...scoreOf(record.result),
        ...(input.reportUrl ? { report: input.reportUrl } : {}),
      },
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}

function scoreOf(result: unknown): Record<string, unknown> {
  const r = result as { score?: number; grade?: string } | null;
  return typeof r?.score === "number" ? { score: r.score, grade: r.grade } : {};
}

export function httpBase(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** The repository path and live URL a result concerns. */
export function placeOf(
  url: string,
  domain: string,
  prefix: string | undefined,
): { uri: string; url: string } {
  let path = "/";
  let live = `https://${domain}/`;
  try {
    const u = new URL(url);
    path = u.pathname;
    live = u.href;
  } catch { /* the home page */ }
  let file = decodeURIComponent(path).replace(/^\/+/, "");
  if (file === "" || file.endsWith("/")) file += "index.html";
  // Only characters safe in a relative URI reference; anything else is percent-encoded.
  const safe = file.split("/").map((s) => encodeURIComponent(s)).join("/");
  const p = trimEnd((prefix ?? "").replace(/^\/+/, ""), charsOf("/")) + (prefix ? "/" : "");
  return { uri: `${p}${safe}`, url: live };
}

/** A result's location: the repository path, the line, and the live URL as its message. */
export function location(place: { uri: string; url: string }, line: number) {
  return {
    physicalLocation: {
      artifactLocation: { uri: place.uri, uriBaseId: "%SRCROOT%" },
      region: { startLine: line, startColumn: 1 },
    },
    message: { text: place.url },
  };
}

export function fingerprint(...parts: string[]): Record<string, string> {
  const hash = createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 16);
  return { primaryLocationLineHash: `${hash}:1` };
}

export function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export const LEVEL: Record<string, "error" | "warning"> = {
  fail: "error",
  warn: "warning",
  error: "error",
  warning: "warning",
};
