/**
 * The SVG badge of a domain (`/badge/:domain.svg`), in the familiar two-part "flat" style: a
 * label on the left, what the service says of the record on the right (the score and grade, or the
 * schema findings), coloured from a fixed table. Every text is XML-escaped; colours come from a fixed table, never from a record.
 */
import type { BaseRecord, ServiceDef } from "../../service.ts";

/** What a badge says. */
export interface BadgeSpec {
  label: string;
  message: string;
  /** Background of the message part (a hex colour from {@link COLOURS}). */
  colour: string;
}

/** Badge colours: each keeps white text above WCAG AA contrast. */
export const COLOURS = {
  A: "#146c2e",
  B: "#2f6b00",
  C: "#8a5300",
  D: "#a33d00",
  F: "#b3141f",
  grey: "#4a5160",
  label: "#2b3445",
} as const;

/**
 * The badge of a stored record (null: the domain was never scanned): the service's label, and
 * what the service's badge says of a scanned record (lib/features/<name>/badge.ts).
 */
export function badgeFor(
  service: Pick<ServiceDef, "words" | "badge">,
  record: BaseRecord | null,
): BadgeSpec {
  const label = service.words.badgeLabel;
  if (!record) return { label, message: "not scanned", colour: COLOURS.grey };
  if (record.status !== "ok" || !record.result) {
    return { label, message: "scan failed", colour: COLOURS.grey };
  }
  return { label, ...service.badge(record) };
}

/** Width of a text in Verdana 11px, approximately (enough to size the badge). */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    if ("il.,:;|!'ıj ".includes(ch)) w += ch === " " ? 3.9 : 3.4;
    else if ("mwMW@".includes(ch)) w += 10.2;
    else if (/[A-Z]/.test(ch)) w += 7.6;
    else if (/[0-9]/.test(ch)) w += 7;
    else if (ch === "/" || ch === "·") w += 4.9;
    else w += 6.6;
  }
  return Math.ceil(w);
}

/** The badge's size, so a page can give its `<img>` the right width and height. */
export function badgeSize(spec: BadgeSpec): { width: number; height: number } {
  return { width: textWidth(spec.label) + textWidth(spec.message) + 20, height: 20 };
}

/** The SVG document of a badge. */
export function renderBadge(spec: BadgeSpec): string {
  const lw = textWidth(spec.label) + 10;
  const mw = textWidth(spec.message) + 10;
  const w = lw + mw;
  const label = xml(spec.label);
  const message = xml(spec.message);
  const colour = /^#[0-9a-f]{6}$/i.test(spec.colour) ? spec.colour : COLOURS.grey;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" ` +
    `aria-label="${label}: ${message}"><title>${label}: ${message}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" ` +
    `stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="${COLOURS.label}"/>` +
    `<rect x="${lw}" width="${mw}" height="20" fill="${colour}"/>` +
    `<rect width="${w}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" ` +
    `font-size="11"><text x="${lw / 2}" y="14">${label}</text>` +
    `<text x="${lw + mw / 2}" y="14">${message}</text></g></svg>`;
}

/** Escapes text for XML content and attribute values. */
export function xml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!,
  );
}
