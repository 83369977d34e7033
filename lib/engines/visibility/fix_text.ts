/**
 * How a fix's `how` text is written and read back. `how` stays one string (the API contract), made
 * of short prose steps and fenced code blocks (CommonMark fences: three or more backticks, an
 * optional language word). Everything pasteable is inside a fence and nothing else is, so the web
 * report can give each block its own Copy button, the CLI can print code apart from prose and an
 * agent reading the JSON or MCP text can tell them apart.
 */
import { charsOf, trimEnd } from "../../kit/text/trim.ts";

/** One piece of a `how` text: a prose step or a block of code to paste as it is. */
export type HowPart =
  | { kind: "prose"; text: string }
  | { kind: "code"; lang: string; code: string };

/**
 * A fenced code block holding `code` exactly; the fence is longer than any run of backticks in
 * the code, so no content can close it early.
 *
 * @example
 * ```ts
 * codeBlock("User-agent: GPTBot\nAllow: /", "robots"); // "```robots\nUser-agent: GPTBot\nAllow: /\n```"
 * ```
 */
export function codeBlock(code: string, lang = ""): string {
  let longest = 0;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${trimEnd(code, charsOf("\n"))}\n${fence}`;
}

/** Joins prose steps and code blocks into one `how` text, one blank line apart. */
export function howText(...parts: (string | null | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p.trim() !== "").join("\n\n");
}

const FENCE = /^(`{3,})([A-Za-z0-9_+-]*)\s*$/;

/**
 * Splits a `how` text into prose and code parts. An unclosed fence runs to the end of the text,
 * as in CommonMark. Prose parts are trimmed; empty ones are dropped.
 */
export function parseHow(how: string): HowPart[] {
  const out: HowPart[] = [];
  const lines = how.split("\n");
  let prose: string[] = [];
  const flush = () => {
    const text = prose.join("\n").trim();
    if (text) out.push({ kind: "prose", text });
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(FENCE);
    if (!open) {
      prose.push(lines[i]);
      continue;
    }
    flush();
    const code: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j].match(/^(`{3,})\s*$/);
      if (close && close[1].length >= open[1].length) break;
      code.push(lines[j]);
    }
    out.push({ kind: "code", lang: open[2], code: code.join("\n") });
    i = j;
  }
  flush();
  return out;
}

/** A piece of a prose step: text, or a code span's content (CommonMark: a run of backticks). */
export interface InlinePart {
  code: boolean;
  text: string;
}

/**
 * Splits a prose step into text and code spans, as CommonMark reads them: a run of backticks opens
 * a span that the next run of the same length closes (one space of padding on both sides is
 * dropped); a run with no closer is plain text.
 *
 * @example
 * ```ts
 * inlineParts("run `curl -s x` now"); // [text "run ", code "curl -s x", text " now"]
 * ```
 */
export function inlineParts(text: string): InlinePart[] {
  // Every run of backticks, found once; for each length, a cursor over the runs of that length
  // only moves forward, so finding each closer costs nothing past it (searching the rest of the
  // text again from each opener was quadratic in a text of unclosed runs).
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ at: m.index, length: m[0].length }));
  const byLength = new Map<number, { at: number[]; next: number }>();
  for (const r of runs) {
    const list = byLength.get(r.length);
    if (list) list.at.push(r.at);
    else byLength.set(r.length, { at: [r.at], next: 0 });
  }
  const closerAfter = (length: number, from: number): number => {
    const list = byLength.get(length)!;
    while (list.next < list.at.length && list.at[list.next] < from) list.next++;
    return list.next < list.at.length ? list.at[list.next] : -1;
  };
  const out: InlinePart[] = [];
  let plain = "";
  let i = 0;
  for (const run of runs) {
    if (run.at < i) continue; // inside a code span already read
    const close = closerAfter(run.length, run.at + run.length);
    if (close < 0) continue; // no closer: the run stays plain text
    plain += text.slice(i, run.at);
    let code = text.slice(run.at + run.length, close).replace(/\n/g, " ");
    // One space of padding on both sides is dropped unless the span is only spaces (CommonMark).
    if (code.length >= 2 && code[0] === " " && code.at(-1) === " " && /[^ ]/.test(code)) {
      code = code.slice(1, -1);
    }
    if (plain) out.push({ code: false, text: plain });
    out.push({ code: true, text: code });
    plain = "";
    i = close + run.length;
  }
  plain += text.slice(i);
  if (plain) out.push({ code: false, text: plain });
  return out;
}

/** The code blocks of a `how` text, in order. */
export function codeBlocksOf(how: string): string[] {
  return parseHow(how).flatMap((p) => p.kind === "code" ? [p.code] : []);
}

/** Escapes text for an HTML attribute value or element text (what a page said goes in code). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}
