/**
 * Small, pure helpers the pages share: dates people read, safe outbound links, waits.
 */
/**
 * An outbound link from a stored record, or null when it is not a plain http(s) URL. Records hold
 * strings taken from scanned sites and third parties: a `javascript:` or `data:` URL must never
 * become an href.
 */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value || value.length > 2048) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** "21 Nov 2026, 10:00 UTC": one unambiguous form, the same on the server and in print. */
export function formatUtc(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const months = [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
  ];
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function timeAgo(iso: string, now: number): string {
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return "";
  if (ms < 60_000) return "just now";
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  if (ms < 3600_000) return plural(Math.floor(ms / 60_000), "minute");
  if (ms < 48 * 3600_000) return plural(Math.floor(ms / 3600_000), "hour");
  return plural(Math.floor(ms / (24 * 3600_000)), "day");
}

/** "12:34" or "1:02:03" for a countdown of seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/**
 * When a wait of `seconds` ends, as people say it: "in 56 minutes", "in 1 minute", "in 40
 * seconds" (never "56:10", which reads like a time of day). Minutes are rounded up, so the text
 * never promises less than the wait.
 */
export function waitText(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return s === 1 ? "in 1 second" : `in ${s} seconds`;
  const m = Math.ceil(s / 60);
  return m === 1 ? "in 1 minute" : `in ${m} minutes`;
}
