/** What the Schema Markup Generator's badge says: errors, warnings, rich-result eligibility. */
import type { BadgeMessage } from "../../service.ts";
import type { SchemaScanRecord } from "../../engines/structured/record.ts";
import { COLOURS } from "../../kit/ui/badge.ts";

/** The message and colour of a scanned schema record's badge. */
export function schemaBadge(record: SchemaScanRecord): BadgeMessage {
  const summary = (record.result as {
    summary?: { errors?: unknown; warnings?: unknown; items?: unknown; eligible?: unknown };
  }).summary;
  const errors = Number(summary?.errors) || 0;
  const warnings = Number(summary?.warnings) || 0;
  const items = Number(summary?.items) || 0;
  // Records made before eligibility existed have no `eligible` count.
  const eligible = typeof summary?.eligible === "number" ? summary.eligible : null;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (errors) return { message: plural(errors, "error"), colour: COLOURS.F };
  // A page without markup is not "valid": nothing was checked.
  if (!items) return { message: "no markup", colour: COLOURS.grey };
  if (eligible === 0) {
    return {
      message: warnings ? `no rich result · ${plural(warnings, "warning")}` : "no rich result",
      colour: warnings ? COLOURS.C : COLOURS.grey,
    };
  }
  if (warnings) {
    return {
      message: eligible ? `${eligible} eligible · ${plural(warnings, "warning")}` : plural(
        warnings,
        "warning",
      ),
      colour: COLOURS.C,
    };
  }
  return {
    message: eligible ? `${eligible} eligible` : "valid",
    colour: COLOURS.A,
  };
}
