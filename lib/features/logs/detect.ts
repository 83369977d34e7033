/**
 * Detects a log's format from its first lines (the caller shows the pick and may override it):
 * W3C directives, an ALB entry's start, JSON whose fields only one format writes, or the Common Log
 * Format with or without the combined fields. Lines that fit no format are left to the reader,
 * which counts them.
 */
import type { LogFormatId } from "./formats.ts";
import { looksLikeClf, readClf } from "./formats/clf.ts";
import { jsonFormatOf, looksLikeJson } from "./formats/json_formats.ts";
import { looksLikeAlb } from "./formats/alb.ts";

/** What detection found: the format, and how many of the sampled lines fit it. */
export interface Detection {
  format: LogFormatId | null;
  /** Sampled non-blank lines that fit the chosen format. */
  fitting: number;
  sampled: number;
}

/** Picks the format most of the sampled lines fit. */
export function detectFormat(lines: readonly string[]): Detection {
  const votes = new Map<LogFormatId, number>();
  let sampled = 0;
  let fieldsDirective: string | null = null;
  for (const line of lines) {
    if (!line.trim()) continue;
    sampled++;
    let id: LogFormatId | null = null;
    if (line.startsWith("#")) {
      if (line.startsWith("#Fields:")) fieldsDirective = line;
      id = fieldsDirective?.includes("x-edge-location") ? "cloudfront" : "w3c";
    } else if (fieldsDirective && /^\d{4}-\d\d-\d\d[ \t]/.test(line)) {
      id = fieldsDirective.includes("x-edge-location") ? "cloudfront" : "w3c";
    } else if (looksLikeAlb(line)) id = "alb";
    else if (looksLikeJson(line)) id = jsonFormatOf(line);
    else if (looksLikeClf(line)) {
      let combined = false;
      readClf(line, () => combined = true, true);
      id = combined ? "combined" : "common";
    }
    if (id) votes.set(id, (votes.get(id) ?? 0) + 1);
  }
  let best: LogFormatId | null = null;
  let fitting = 0;
  for (const [id, n] of votes) {
    if (n > fitting) [best, fitting] = [id, n];
  }
  return { format: best, fitting, sampled };
}
