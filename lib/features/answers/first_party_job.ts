/**
 * Reading a first-party export (the "first-party-csv" job, run in a scan thread: the server's
 * thread parses nothing a user uploads): the CSV is parsed with papaparse (RFC 4180 quoting,
 * comma or semicolon, a byte-order mark dropped), its header matched against the source's known
 * columns (first_party.ts), every row checked (a page that is not a URL, a metric that is not a
 * number is a clear error naming its line), unknown columns kept as text. Bounded: at most
 * MAX_IMPORT_ROWS rows, MAX_IMPORT_COLUMNS columns, MAX_CELL_CHARS per cell.
 */
import Papa from "papaparse";

/** The part of papaparse's API used here (the package ships no types). */
const csv = Papa as unknown as {
  parse(
    text: string,
    options: { skipEmptyLines: "greedy"; delimitersToGuess: string[]; preview: number },
  ): { data: string[][] };
};
import {
  FIRST_PARTY_SOURCES,
  type FirstPartySource,
  type FirstPartyTable,
  type ImportedRow,
  type ImportReading,
  type KnownColumn,
  MAX_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
} from "./first_party.ts";

/** A "first-party-csv" job: the file's text and the source the user named. */
export interface FirstPartyJob {
  kind: "first-party-csv";
  source: FirstPartySource;
  text: string;
}

/** Reads one export (see the module comment). */
export function readFirstParty(job: FirstPartyJob): ImportReading {
  const def = FIRST_PARTY_SOURCES[job.source];
  if (!def) return { ok: false, error: "Unknown source." };
  const text = job.text.replace(/^\uFEFF/, "");
  if (text.startsWith("PK\u0003\u0004")) {
    return {
      ok: false,
      error: "This is a ZIP archive (Search Console downloads one): unzip it and upload the " +
        "CSV inside (Pages.csv or Queries.csv).",
    };
  }
  // deno-lint-ignore no-control-regex
  if (/\u0000/.test(text.slice(0, 4096))) return { ok: false, error: "This is not a text file." };
  const parsed = csv.parse(text, {
    skipEmptyLines: "greedy",
    delimitersToGuess: [",", ";", "\t"],
    preview: MAX_IMPORT_ROWS + 2,
  });
  const rows = parsed.data;
  if (!rows.length) return { ok: false, error: "The file is empty." };
  const header = rows[0].map((h) => String(h).trim()).slice(0, MAX_IMPORT_COLUMNS);
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const find = (col: KnownColumn) => header.findIndex((h) => col.titles.includes(norm(h)));
  let table: FirstPartyTable | null = null;
  let keyAt = -1;
  for (const t of ["pages", "queries"] as const) {
    const at = find(def.keys[t]);
    if (at >= 0) {
      table = t;
      keyAt = at;
      break;
    }
  }
  if (!table) {
    return {
      ok: false,
      error: `Line 1: no page or query column for ${def.label} (expected one of: ${
        [...def.keys.pages.titles, ...def.keys.queries.titles].map((t) => `"${t}"`).join(", ")
      }; found: ${header.map((h) => `"${h.slice(0, 40)}"`).join(", ")}).`,
    };
  }
  const metrics = def.metrics.map((m) => ({ m, at: find(m) })).filter((x) => x.at >= 0);
  if (!metrics.some((x) => x.m.kind !== "text")) {
    return {
      ok: false,
      error: `Line 1: none of the metric columns of ${def.label} (${
        def.metrics.filter((m) => m.kind !== "text").map((m) => `"${m.titles[0]}"`).join(", ")
      }) is there.`,
    };
  }
  const known = new Set([keyAt, ...metrics.map((x) => x.at)]);
  const dateAt = header.findIndex((h) => norm(h) === "date");
  const unknown = header.map((h, i) => ({ h, i })).filter((x) => !known.has(x.i));
  if (rows.length - 1 > MAX_IMPORT_ROWS) {
    return { ok: false, error: `More than ${MAX_IMPORT_ROWS} rows: split the file.` };
  }
  const out: ImportedRow[] = [];
  const dates: string[] = [];
  for (let r = 1; r < rows.length; r++) {
    const line = r + 1;
    const cells = rows[r].map((c) => String(c ?? "").trim().slice(0, MAX_CELL_CHARS));
    const key = cells[keyAt] ?? "";
    if (!key) return { ok: false, error: `Line ${line}: the ${table} column is empty.` };
    if (table === "pages" && !/^https?:\/\/[^\s/]+/i.test(key) && !key.startsWith("/")) {
      return { ok: false, error: `Line ${line}: "${key.slice(0, 80)}" is not a page URL.` };
    }
    const values: Record<string, number | string | null> = {};
    for (const { m, at } of metrics) {
      const raw = cells[at] ?? "";
      if (m.kind === "text") {
        values[m.key] = raw || null;
        continue;
      }
      if (raw === "") {
        values[m.key] = null;
        continue;
      }
      const n = numberOf(raw, m.kind === "percent");
      if (n === null) {
        return {
          ok: false,
          error: `Line ${line}: "${raw.slice(0, 40)}" in column "${header[at]}" is not a number.`,
        };
      }
      values[m.key] = n;
    }
    const extra: Record<string, string> = {};
    for (const u of unknown) if (cells[u.i]) extra[u.h] = cells[u.i];
    if (dateAt >= 0 && /^\d{4}-\d{2}-\d{2}$/.test(cells[dateAt] ?? "")) dates.push(cells[dateAt]);
    out.push({ key, metrics: values, extra });
  }
  if (!out.length) return { ok: false, error: "The file has a header but no rows." };
  dates.sort();
  return {
    ok: true,
    table: {
      source: job.source,
      table,
      columns: header,
      metrics: metrics.map((x) => x.m.key),
      unknownColumns: unknown.map((u) => u.h),
      rows: out,
      dates: dates.length ? { from: dates[0], to: dates[dates.length - 1] } : null,
    },
  };
}

/** "1,234" or "1 234" -> 1234; "12.5%" -> 0.125 for a percent; "3,4" (a decimal comma) -> 3.4. */
function numberOf(raw: string, percent: boolean): number | null {
  let s = raw.replace(/[\s\u00a0]/g, "");
  const isPercent = s.endsWith("%");
  if (isPercent) s = s.slice(0, -1);
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, "");
  else if (/^-?\d+,\d+$/.test(s)) s = s.replace(",", ".");
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  const n = Number(s);
  if (!Number.isFinite(n)) return null;
  return percent && isPercent ? n / 100 : n;
}

/** The thread's entry point for "first-party-csv" jobs (lib/kit/isolate/protocol.ts). */
export const runJob: (job: FirstPartyJob) => ImportReading = readFirstParty;
