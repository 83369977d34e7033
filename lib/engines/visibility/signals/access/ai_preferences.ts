/**
 * `access.ai_preferences`: what the site declares about the use of its content by AI, per purpose
 * (search, AI input, training), from Cloudflare's `Content-Signal` lines and the IETF
 * AI-preferences `Content-Usage` rule in robots.txt and header (usage_prefs.ts), and where that
 * disagrees with robots.txt's own verdicts. Reported, never scored: the preferences are the
 * owner's choice.
 */
import { crawlerMatrix } from "../../crawlers_matrix.ts";
import { crawlerOf } from "../../crawlers.ts";
import { noFix, type SignalDef } from "../../signal.ts";
import { STANDARDS } from "../../standards.ts";
import { contradictions, PURPOSES } from "../../usage_prefs.ts";

export const aiPreferences: SignalDef = {
  id: "access.ai_preferences",
  pillar: "access",
  title: "AI usage preferences (your choice)",
  points: 0,
  scope: "page",
  learn: {
    what:
      "A site can say how its content may be used once it is crawled: for search, as input to AI answers, for training. Cloudflare's `Content-Signal` lines in robots.txt (`search`, `ai-input`, `ai-train`, on by default in its managed robots.txt) and the IETF drafts' `Content-Usage` header and robots.txt rule (`search`, `ai-use`, `train-ai`) carry such preferences.",
    why:
      "They are preferences, not blocks: a crawler that honours them may still fetch the page and then limit what it does with it, and the vendors do not all say they read them. Stating them is the owner's choice, so they never cost points; we only point out where they contradict robots.txt, because crawlers then have to guess which one you meant.",
    how:
      "We read every `Content-Signal` and `Content-Usage` line of robots.txt per group (an optional leading path scopes a line; for Content-Usage the longest matching path applies), and the `Content-Usage` and `Content-Signal` headers of the home page. Per purpose we report what applies to the home page for the crawlers of the `*` group (the most restrictive statement wins), and we compare with each crawler's robots.txt verdict: for example `ai-train=no` while robots.txt lets GPTBot read the home page. Content Signals' `use` key (reference, then full: the most a crawler may use the content for, as Cloudflare's changelog of 2026-08-31 defines it) is read as a level. robots.txt groups for tokens not in our registry are listed as written: the training-preference draft of 2026-10-30 (draft-kelley-aipref-training-preference-signal-00) keys such groups by a policy token, which the copy we could read does not name, so we do not interpret them yet. Versions read: the Content Signals policy text as Cloudflare publishes it, draft-ietf-aipref-vocab-08 and draft-ietf-aipref-attach-05.",
    sources: [
      STANDARDS.contentSignals,
      STANDARDS.contentSignalsUse,
      STANDARDS.aiprefVocab,
      STANDARDS.aiprefAttach,
      STANDARDS.trainingPreference,
    ],
  },
  check(ctx) {
    if (ctx.robots.state === "unreachable") {
      return { status: "unknown", detail: "robots.txt could not be read." };
    }
    const m = crawlerMatrix(ctx);
    const decl = m.prefs.declarations;
    const star = (purpose: (typeof PURPOSES)[number]["id"]) => {
      const applying = decl.filter((d) =>
        d.purpose === purpose && (d.scope === "*" || d.scope === "" || d.scope === "header") &&
        d.path === "/"
      );
      if (!applying.length) return null;
      return applying.some((d) => !d.allowed) ? "no" : "yes";
    };
    const perPurpose = PURPOSES.map((p) => {
      const v = star(p.id);
      return `${p.name}: ${v ?? "not declared"}`;
    });
    const statements = decl.slice(0, 30).map((d) =>
      `${d.source}${d.scope && d.scope !== "header" ? `, User-agent: ${d.scope}` : ""}${
        d.path !== "/" ? `, under ${d.path}` : ""
      }: ${d.purpose.replace("_", " ")} ${d.allowed ? "yes" : "no"}`
    );
    const clashes = contradictions(m.prefs, m.parsed, ctx.robots);
    // Content Signals' use key: the most a crawler may use the content for (reference < full).
    const uses = m.prefs.use.slice(0, 10).map((u) =>
      `${u.source}${
        u.scope && u.scope !== "header" ? `, User-agent: ${u.scope}` : ""
      }: use=${u.level}`
    );
    const starUse = m.prefs.use.filter((u) =>
      u.scope === "*" || u.scope === "" || u.scope === "header"
    );
    const useLevel = starUse.length
      ? (starUse.some((u) => u.level === "reference") ? "reference" : "full")
      : null;
    const useLine = useLevel ? [`use (how far AI may use content): ${useLevel}`] : [];
    // Groups of tokens the registry does not know: shown as written (a per-purpose policy token,
    // as draft-kelley-aipref-training-preference-signal proposes, would be one of them).
    const unknownGroups = m.parsed
      ? [...m.parsed.tokenParts.keys()].filter((t) => t !== "*" && !crawlerOf(t)).slice(0, 12)
      : [];
    const groupsLine = unknownGroups.length
      ? [`robots.txt groups for tokens not in our registry: ${unknownGroups.join(", ")}`]
      : [];
    if (!decl.length && !useLevel) {
      return {
        status: "info",
        detail:
          "The site declares no AI usage preference (no Content-Signal or Content-Usage line in robots.txt, no such header on the home page). That is fine: preferences are optional and never scored.",
        evidence: [...m.prefs.other.map((o) => `also written: ${o}`), ...uses, ...groupsLine],
      };
    }
    return {
      status: "info",
      detail: `For the home page, the site declares ${perPurpose.join("; ")}${
        useLevel
          ? `; how far AI may use the content (Content Signals use): ${useLevel}${
            useLevel === "reference" ? " (the least permissive level)" : ""
          }`
          : ""
      }${
        clashes.length
          ? `. Where this disagrees with robots.txt (informational, not scored): ${
            clashes.join("; ")
          }.`
          : "; robots.txt agrees with it."
      }`,
      evidence: [
        ...perPurpose,
        ...useLine,
        ...clashes.map((c) => `contradiction: ${c}`),
        ...statements,
        ...uses,
        ...m.prefs.other.map((o) => `also written: ${o}`),
        ...groupsLine,
      ],
    };
  },
  fix: noFix,
};
