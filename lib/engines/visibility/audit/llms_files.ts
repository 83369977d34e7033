/**
 * llms.txt files in subpaths (llms.txt v2: a file covers the pages under its folder, the most
 * specific one applying): found through the `rel="describedby"` links of the home page and the
 * sampled pages (HTML `<link>` or `Link:` header) and through the root llms.txt's own links to
 * another llms.txt on the site, then fetched (at most {@link MAX_LLMS_FILES}, politely, robots.txt
 * obeyed, within the audit's budget) and validated.
 */
import { llmsTxtLinks, validateLlmsTxt } from "../llms_txt.ts";
import { llmsScope } from "../link_header.ts";
import { attempt, isOk, looksLikeHtml } from "../snapshot.ts";
import type { Snapshot } from "../snapshot_types.ts";
import type { LlmsFile, PageReport } from "./types.ts";
import type { PoliteFetcher } from "./polite.ts";

/** Subpath llms.txt files fetched at most. */
export const MAX_LLMS_FILES = 2;

/** The subpath llms.txt candidates: same origin as the home page, not the root file. */
export function llmsCandidates(
  snapshot: Snapshot,
  pages: PageReport[],
): { url: string; foundVia: string }[] {
  const home = snapshot.home;
  if (!home.ok) return [];
  const origin = new URL(home.result.finalUrl).origin;
  const out: { url: string; foundVia: string }[] = [];
  const add = (url: string | null | undefined, foundVia: string) => {
    if (!url) return;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    u.hash = "";
    u.search = "";
    if (u.origin !== origin || !u.pathname.endsWith("/llms.txt") || u.pathname === "/llms.txt") {
      return;
    }
    if (!out.some((c) => c.url === u.href)) out.push({ url: u.href, foundVia });
  };
  for (const p of pages) add(p.describedBy, `rel="describedby" on ${p.path}`);
  const llms = snapshot.llms;
  if (
    llms.ok && isOk(llms) && !looksLikeHtml(llms.result.headers["content-type"], llms.result.body)
  ) {
    for (const link of llmsTxtLinks(llms.result.body, llms.result.finalUrl)) {
      add(link, "a link in /llms.txt");
    }
  }
  return out;
}

/** Fetches and validates the candidates, at most {@link MAX_LLMS_FILES}. */
export async function fetchLlmsFiles(
  candidates: { url: string; foundVia: string }[],
  fetcher: PoliteFetcher,
  signal: AbortSignal,
  allowed: (url: string) => boolean,
): Promise<LlmsFile[]> {
  const picked = candidates.filter((c) => allowed(c.url)).slice(0, MAX_LLMS_FILES);
  return await Promise.all(picked.map(async (c): Promise<LlmsFile> => {
    const base = { url: c.url, scope: llmsScope(c.url), foundVia: c.foundVia };
    if (signal.aborted) return { ...base, valid: null, title: null, problems: [] };
    const out = await attempt(fetcher, c.url, { signal, maxBytes: 1024 * 1024 });
    if (!out.ok || !isOk(out)) {
      return {
        ...base,
        valid: null,
        title: null,
        problems: [out.ok ? `answered HTTP ${out.result.status}` : `no answer (${out.error.kind})`],
      };
    }
    if (looksLikeHtml(out.result.headers["content-type"], out.result.body)) {
      return { ...base, valid: false, title: null, problems: ["an HTML page, not an llms.txt"] };
    }
    const report = validateLlmsTxt(out.result.body, out.result.finalUrl);
    return { ...base, valid: report.valid, title: report.title, problems: report.problems };
  }));
}
