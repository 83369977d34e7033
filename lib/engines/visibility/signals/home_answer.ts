/** The home page's HTTP answer, which the technical signals read (a scored scan always has one). */
import type { ScanContext } from "../check.ts";
import type { FetchResult } from "../../../kit/net/types.ts";

/** The home page's answer; throws when the snapshot has none (its pillar is then not evaluated). */
export function homeAnswer(ctx: ScanContext): FetchResult {
  if (!ctx.snapshot.home.ok) throw new Error("technical pillar needs a fetched home page");
  return ctx.snapshot.home.result;
}
