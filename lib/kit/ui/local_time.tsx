/**
 * A moment as pages show it: `<time datetime="<ISO UTC>" title="<UTC text>" data-local>` with the
 * UTC text inside. The page's inline script (lib/kit/ui/comfort_script.ts) rewrites the text in the
 * reader's time zone; without JavaScript, and in the tooltip, the UTC value stays.
 */
import type { VNode } from "preact";
import { formatUtc } from "./format.ts";
import { formatWhen } from "./key_view.ts";

/**
 * A moment given as an ISO string (e.g. a record's scannedAt). `short`: the browser writes the time
 * of day alone when it is today there ("15:59 (your time)"), else the day and the time; the full
 * date is the default.
 */
export function LocalTime(props: { iso: string; utc?: string; short?: boolean }): VNode {
  const d = new Date(props.iso);
  if (Number.isNaN(d.getTime())) return <time>{props.iso}</time>;
  const utc = props.utc ?? formatUtc(props.iso);
  return (
    <time dateTime={d.toISOString()} title={utc} data-local={props.short ? "short" : ""}>
      {utc}
    </time>
  );
}

/**
 * A moment given in epoch milliseconds (the key tables: "2026-11-21 10:00 UTC" without
 * JavaScript), or `none` (e.g. "never") for null.
 */
export function LocalTimeMs(props: { ms: number | null; none?: string }): VNode {
  if (props.ms === null || !Number.isFinite(props.ms)) return <>{props.none ?? "never"}</>;
  return <LocalTime iso={new Date(props.ms).toISOString()} utc={formatWhen(props.ms)} />;
}
