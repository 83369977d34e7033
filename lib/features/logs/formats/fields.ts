/**
 * Small readers shared by the log formats: timestamps in the forms logs write them, quoted fields
 * with backslash escapes, addresses without their port. Each is one pass over its input, with no
 * regular expression that can backtrack.
 */

const MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

/** Two or four digits at `at`, or NaN. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

/**
 * The Common Log Format's `%t` without its brackets: `10/Oct/2000:13:55:36 -0700`, in ms since the
 * epoch (UTC), or NaN.
 */
export function clfTime(s: string): number {
  if (s.length < 26) return NaN;
  const day = digits(s, 0, 2), month = MONTHS[s.slice(3, 6)], year = digits(s, 7, 4);
  const h = digits(s, 12, 2), m = digits(s, 15, 2), sec = digits(s, 18, 2);
  const sign = s[21] === "-" ? -1 : s[21] === "+" ? 1 : 0;
  const oh = digits(s, 22, 2), om = digits(s, 24, 2);
  if (month === undefined || !sign) return NaN;
  const utc = Date.UTC(year, month, day, h, m, sec);
  return utc - sign * (oh * 60 + om) * 60_000;
}

/**
 * A timestamp as JSON logs write it: ISO 8601 text, or a number of seconds, milliseconds,
 * microseconds or nanoseconds since the epoch (told apart by size), in ms; NaN when unreadable.
 */
export function anyTime(v: unknown): number {
  if (typeof v === "number" && Number.isFinite(v)) {
    const a = Math.abs(v);
    if (a >= 1e17) return v / 1e6;
    if (a >= 1e14) return v / 1e3;
    if (a >= 1e11) return v;
    return v * 1000;
  }
  if (typeof v === "string" && v.length <= 64) {
    if (/^\d+(\.\d+)?$/.test(v)) return anyTime(Number(v));
    const iso = Date.parse(v);
    if (!Number.isNaN(iso)) return iso;
    // nginx $time_local inside JSON: the CLF form.
    return clfTime(v);
  }
  return NaN;
}

/**
 * Reads a `"quoted"` field starting at `at` (the opening quote), undoing `\"` and `\\`. Returns
 * the value and the index after the closing quote, or null when the quote is not closed.
 */
export function quoted(line: string, at: number): { value: string; next: number } | null {
  if (line.charCodeAt(at) !== 34) return null;
  let out = "";
  let start = at + 1;
  for (let i = at + 1; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 92 && i + 1 < line.length) {
      out += line.slice(start, i);
      const n = line[i + 1];
      out += n === "x" ? "\\x" : n;
      i++;
      start = i + 1;
    } else if (c === 34) {
      return { value: out + line.slice(start, i), next: i + 1 };
    }
  }
  return null;
}

/** The address of `host:port`, `[v6]:port` or a bare address (an IPv6 address keeps its colons). */
export function stripPort(s: string): string {
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    return end > 0 ? s.slice(1, end) : s;
  }
  const first = s.indexOf(":");
  if (first > 0 && first === s.lastIndexOf(":")) return s.slice(0, first);
  return s;
}

/** A status code 100..599, or NaN. */
export function statusOf(v: unknown): number {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 100 && n <= 599 ? n : NaN;
}

/** A byte count, `-` or absent as 0; NaN for anything else. */
export function bytesOf(v: unknown): number {
  if (v === undefined || v === null || v === "-" || v === "") return 0;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : NaN;
}

/** The method and target of a request line `GET /path HTTP/1.1`, or null. */
export function requestLine(r: string): { method: string; target: string } | null {
  const a = r.indexOf(" ");
  if (a <= 0) return null;
  const b = r.lastIndexOf(" ");
  const target = b > a ? r.slice(a + 1, b) : r.slice(a + 1);
  return target ? { method: r.slice(0, a), target } : null;
}
