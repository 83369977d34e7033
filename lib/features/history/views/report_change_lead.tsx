/**
 * What a rescan changed, leading the report's first screen: how many checks were fixed since the
 * previous scan (at the reader's time), what still caps the score, and how the score moved without
 * the cap; the full comparison (lib/features/history/views/report_changes.tsx) stays below. The words come from the
 * diff of the two kept records (lib/engines/history/diff.ts), the gate's name from its signal.
 */
import type { VNode } from "preact";
import type { DiffSide, ScanDiff } from "../../../engines/history/diff.ts";
import { gateText } from "../../../engines/visibility/learn.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function gateName(cap: NonNullable<DiffSide["cap"]>): string {
  return gateText(cap.id)?.name ?? cap.id.replace(/_/g, " ");
}

/** "53 → 73", or "stayed at 53". */
function moved(from: number, to: number): string {
  return from === to ? `stayed at ${from}` : `moved ${from} → ${to}`;
}

/**
 * The sentence about the score: through the cap when either scan was capped ("still capped at 35
 * because ...; without the cap the score moved 53 → 73"), else the score itself.
 */
export function scoreChangeText(d: ScanDiff): string | null {
  const { from, to } = d;
  if (from.score === null || to.score === null) return null;
  const a = Math.round(from.score), b = Math.round(to.score);
  const before = from.cap?.binding ? from.cap : null;
  const now = to.cap?.binding ? to.cap : null;
  const parts: string[] = [];
  if (now) {
    parts.push(
      `${before?.id === now.id ? "still" : "now"} capped at ${now.cap} because ${gateName(now)}`,
    );
  } else if (before) {
    parts.push(
      `no longer capped (it was capped at ${before.cap} because ${gateName(before)})`,
    );
  }
  if ((before || now) && from.uncapped !== null && to.uncapped !== null) {
    parts.push(`the score ${moved(a, b)}; without the cap it ${moved(from.uncapped, to.uncapped)}`);
  } else {
    parts.push(`the score ${moved(a, b)}`);
  }
  const grade = d.gradeChanged ? `, grade ${from.grade} → ${to.grade}` : "";
  const text = parts.join("; ") + grade;
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}

/** The change since the previous scan, for the top of the first screen; null without one. */
export function ChangeLead(props: { diff: ScanDiff | null }): VNode | null {
  const d = props.diff;
  if (!d || d.from.status !== "ok" || d.to.status !== "ok") return null;
  const fixed = d.fixed.length;
  const added = d.new.length;
  return (
    <section class="card change-lead" id="change-lead" aria-labelledby="change-lead-title">
      <h2 id="change-lead-title" class="change-headline">
        {fixed
          ? `${plural(fixed, "check")} fixed since `
          : added
          ? "No check fixed since "
          : "Nothing changed in the checks since "}
        <LocalTime iso={d.from.scannedAt} short />
        {added ? `; ${plural(added, "new issue")}` : ""}
      </h2>
      <p class="change-score">{scoreChangeText(d)}</p>
      <p class="change-more">
        <a href="#changes-title">Everything that changed</a>
      </p>
    </section>
  );
}
