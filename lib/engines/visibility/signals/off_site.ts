/**
 * The finding of an off-site presence signal (`trust.wikidata`, `trust.wikipedia`,
 * `trust.common_crawl`): what the lookup found, unknown when it could not run.
 */
import type { ScanContext } from "../check.ts";
import type { OffSite } from "../record.ts";
import type { Finding } from "../signal.ts";

/** The lookup's finding: pass when found, warn (no points) when not, unknown when it failed. */
export function offSiteFinding(
  ctx: ScanContext,
  key: keyof OffSite,
  points: number,
  impact?: "low",
): Finding {
  const check = ctx.offSite?.[key];
  if (!check) return { status: "unknown", detail: "The off-site checks could not run." };
  const evidence = check.url ? [check.url] : [];
  if (check.status === "unknown") return { status: "unknown", detail: check.detail, evidence };
  return {
    status: check.status === "found" ? "pass" : "warn",
    detail: check.detail,
    points: check.status === "found" ? points : 0,
    evidence,
    impact,
  };
}
