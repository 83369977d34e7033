/**
 * The W3C extended log file format as IIS writes it (space-separated, `+` for spaces in the
 * User-Agent) and as Amazon CloudFront's standard logs write it (tab-separated, the User-Agent
 * percent-encoded): the `#Fields:` directive names the columns, and each line is read by those
 * names. Sources: Microsoft's "W3C Logging" field list
 * (https://learn.microsoft.com/en-us/windows/win32/http/w3c-logging) and CloudFront's "Standard
 * logging reference" (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/standard-logs-reference.html),
 * both checked 2026-12-06.
 */
import type { HitSink, LineOutcome } from "../hit.ts";
import { bytesOf, statusOf } from "./fields.ts";

/** True for a directive line (`#Version`, `#Fields`, ...) or a line starting with a date. */
export function looksLikeW3c(line: string): boolean {
  return line.startsWith("#") || /^\d{4}-\d\d-\d\d[ \t]\d\d:\d\d:\d\d[ \t]/.test(line);
}

/** Undoes CloudFront's percent-encoding of a field (twice-encoded `%2520` comes out as `%20`). */
function percentDecoded(v: string): string {
  if (!v.includes("%")) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** A reader of one W3C log: it learns the columns from each `#Fields:` directive. */
export class W3cReader {
  #fields: string[] = [];
  #index = new Map<string, number>();

  /** The columns currently in force (empty before the first `#Fields:`). */
  get fields(): readonly string[] {
    return this.#fields;
  }

  /** Checks a line's shape, reading directives; "skip" for a directive. */
  check(line: string): LineOutcome {
    if (line.startsWith("#")) {
      if (line.startsWith("#Fields:")) {
        this.#fields = line.slice(8).trim().split(/\s+/);
        this.#index = new Map(this.#fields.map((f, i) => [f.toLowerCase(), i]));
      }
      return "skip";
    }
    if (!this.#fields.length) return { bad: "a W3C line before any #Fields directive" };
    return looksLikeW3c(line) ? "ok" : { bad: "not a W3C extended log line" };
  }

  /** Reads a data line by the current columns. */
  read(line: string, emit: HitSink): LineOutcome {
    const tabbed = line.includes("\t");
    const cols = tabbed ? line.split("\t") : line.split(" ");
    if (cols.length !== this.#fields.length) {
      return { bad: `${cols.length} fields where #Fields names ${this.#fields.length}` };
    }
    const at = (name: string) => {
      const i = this.#index.get(name);
      const v = i === undefined ? "" : cols[i];
      return v === "-" ? "" : v;
    };
    const cloudfront = this.#index.has("x-edge-location");
    const rawAgent = at("cs(user-agent)");
    const userAgent = cloudfront ? percentDecoded(rawAgent) : rawAgent.replaceAll("+", " ");
    const time = Date.parse(`${at("date")}T${at("time")}Z`);
    const query = at("cs-uri-query");
    const status = statusOf(at("sc-status"));
    const bytes = bytesOf(at("sc-bytes"));
    if (Number.isNaN(time)) return { bad: "unreadable date or time" };
    if (Number.isNaN(status)) return { bad: "unreadable status" };
    if (Number.isNaN(bytes)) return { bad: "unreadable byte count" };
    emit({
      time,
      ip: at("c-ip"),
      method: at("cs-method"),
      target: at("cs-uri-stem") + (query ? `?${query}` : ""),
      status,
      bytes,
      userAgent,
    });
    return "ok";
  }
}
