/**
 * The one "JavaScript-only" rule, for the home page (content.server_text) and every sampled page
 * (the site audit): evidence first. When the scan rendered the page (lib/render/), the verdict is
 * what rendering showed: text that appears only after scripts is JavaScript-only, a page short in
 * both views is thin. When it did not, the server HTML's signs decide, and the verdict says it is
 * a judgement from those signs: under 80 words AND a sign of client rendering (an empty app mount
 * node, external scripts, or text in `<noscript>`) is JavaScript-only; under 80 words without any
 * sign is thin, never JavaScript-only.
 */
import type { PageFacts } from "../html/types.ts";
import { MIN_WORDS } from "../render/compare.ts";
import type { RenderedPage, RenderView } from "../render/view.ts";
import type { AuditResult, PageReport } from "./audit/types.ts";

/** A JavaScript-only verdict and what it rests on. */
export interface JsVerdict {
  /** js_only: the text appears only after scripts; partly_js: scripts add much; thin; server. */
  kind: "js_only" | "partly_js" | "thin" | "server";
  /** "rendered": a browser ran the page; "heuristic": judged from the server HTML's signs. */
  basis: "rendered" | "heuristic";
  /** What the verdict rests on, one line each. */
  evidence: string[];
}

/**
 * The verdict for a page: from its rendered view when there is one that rendered, else from the
 * server HTML's signs.
 */
export function jsVerdict(facts: PageFacts, rendered?: RenderedPage | null): JsVerdict {
  if (rendered?.state === "rendered" && rendered.raw && rendered.rendered) {
    const kind = rendered.verdict === "unknown" ? "server" : rendered.verdict;
    return {
      kind,
      basis: "rendered",
      evidence: [
        `rendered in a browser: ${rendered.rendered.words} words after scripts, ${rendered.raw.words} in the server HTML`,
      ],
    };
  }
  const { text, appShell, noscriptWords, scripts } = facts;
  const signs = [
    ...(appShell.emptyMountNode ? ["an empty app mount node"] : []),
    ...(scripts.external > 0 ? [`${scripts.external} external scripts`] : []),
    ...(noscriptWords > 0 ? [`${noscriptWords} words in <noscript>`] : []),
    ...appShell.markers.map((m) => `framework marker ${m}`),
  ];
  const hasSigns = appShell.emptyMountNode || scripts.external > 0 || noscriptWords > 0;
  const kind = text.words >= MIN_WORDS ? "server" : hasSigns ? "js_only" : "thin";
  return {
    kind,
    basis: "heuristic",
    evidence: [
      `not rendered: judged from the server HTML (${text.words} words${
        signs.length ? `; ${signs.join(", ")}` : "; no sign of client rendering"
      })`,
    ],
  };
}

/** The rendered view of a URL, if the scan rendered it. */
export function renderedPageFor(view: RenderView | undefined, url: string): RenderedPage | null {
  if (!view) return null;
  const key = pageKey(url);
  return view.pages.find((p) => pageKey(p.url) === key) ?? null;
}

/**
 * The sampled pages' JavaScript verdicts with the rendered evidence: a page the render showed to
 * be thin loses its "JS shell", a page it showed to be JavaScript-only gains it. Pages not
 * rendered keep the server HTML's verdict.
 */
export function withRenderedEvidence(audit: AuditResult, view: RenderView): AuditResult {
  const pages = audit.pages.map((page): PageReport => {
    const rendered = renderedPageFor(view, page.url);
    if (page.state !== "read" || rendered?.state !== "rendered") return page;
    const verdict = rendered.verdict;
    const fails = page.fails.filter((f) => f !== "JS shell" && f !== "thin text");
    const wasThin = page.fails.includes("thin text") || page.fails.includes("JS shell");
    if (verdict === "js_only") fails.push("JS shell");
    else if (verdict === "thin" && wasThin) fails.push("thin text");
    return { ...page, fails, jsShell: verdict === "js_only", jsBasis: "rendered" };
  });
  return { ...audit, pages };
}

/** A URL without its fragment and trailing slash differences, for matching views. */
function pageKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href.replace(/\/$/, "");
  } catch {
    return url;
  }
}
