/** What the AI Visibility Checker's badge says: the score and the grade, in the grade's colour. */
import type { BadgeMessage } from "../../service.ts";
import type { ScanRecord } from "../../engines/visibility/record.ts";
import { COLOURS } from "../../kit/ui/badge.ts";

/** The message and colour of a scanned visibility record's badge. */
export function visibilityBadge(record: ScanRecord): BadgeMessage {
  const result = record.result as { score?: unknown; grade?: unknown };
  const score = Math.round(Math.max(0, Math.min(100, Number(result.score) || 0)));
  const grade = typeof result.grade === "string" && result.grade in COLOURS
    ? result.grade as keyof typeof COLOURS
    : null;
  return {
    message: grade ? `${score}/100 · ${grade}` : `${score}/100`,
    colour: grade ? COLOURS[grade] : COLOURS.grey,
  };
}
