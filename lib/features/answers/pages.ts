/**
 * First-party exports imported, and the site's pages side by side: per page (its path), how many
 * of the latest run's answers cite it, what Bing's AI Performance and Search Console exports say
 * of it, and, where the account has uploaded its server logs, how often verified AI crawlers
 * fetched it (the logs feature's observed column, handed in by the app). The queries tables are
 * listed as they are. An import is read in a scan thread (first_party_job.ts); nothing of it is
 * parsed here.
 */
import { BadRequestError } from "../../kit/errors.ts";
import { assertMayRun } from "./access.ts";
import type { AnswersDeps } from "./context.ts";
import {
  FIRST_PARTY_SOURCES,
  type FirstPartySource,
  type ImportedRow,
  type ImportedTable,
  type ImportReading,
  isFirstPartySource,
} from "./first_party.ts";
import type { FirstPartyJob } from "./first_party_job.ts";
import { domainOf } from "./plan.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";
import type { Owner } from "./run_types.ts";

/** What is kept of an import beside its rows. */
export interface ImportMeta {
  source: FirstPartySource;
  table: ImportedTable["table"];
  importedAt: number;
  columns: string[];
  metrics: string[];
  unknownColumns: string[];
  dates: ImportedTable["dates"];
  rows: number;
}

/** Time one file is given in its thread. */
export const IMPORT_TIMEOUT_MS = 20_000;

/** Reads a file in a worker (lib/features/answers/jobs.ts), never on the server's thread. */
async function read(deps: AnswersDeps, job: FirstPartyJob): Promise<ImportReading> {
  return await deps.runJob(job, IMPORT_TIMEOUT_MS) as ImportReading;
}

/**
 * Imports one export of `source` for the owner's site. @throws BadRequestError (400) naming what
 * is wrong with the file (nothing is stored then), NotWatchedError (403).
 */
export async function importExport(
  deps: AnswersDeps,
  owner: Owner,
  input: string,
  source: string,
  text: string,
): Promise<ImportMeta> {
  const { domain } = domainOf(input);
  await assertMayRun(deps, owner, domain);
  if (!isFirstPartySource(source)) {
    throw new BadRequestError(
      `source must be one of ${Object.keys(FIRST_PARTY_SOURCES).join(", ")}`,
    );
  }
  const reading = await read(deps, { kind: "first-party-csv", source, text });
  if (!reading.ok) throw new BadRequestError(`Not imported: ${reading.error}`);
  const t = reading.table;
  const meta: ImportMeta = {
    source,
    table: t.table,
    importedAt: deps.now(),
    columns: t.columns,
    metrics: t.metrics,
    unknownColumns: t.unknownColumns,
    dates: t.dates,
    rows: t.rows.length,
  };
  await deps.answers.putImport(owner, domain, source, t.table, meta, t.rows);
  deps.log({ event: "answers.imported", domain, source, table: t.table, rows: t.rows.length });
  return meta;
}

/** The path of a page URL (or a path), without query, trailing slash or case of the host. */
export function pathOf(key: string): string {
  let path = key;
  try {
    path = new URL(key, "https://x.invalid").pathname;
  } catch { /* kept */ }
  return path.length > 1 ? trimEnd(path, charsOf("/")) || "/" : "/";
}

/** One page's line. */
export interface PageLine {
  path: string;
  /** Answers of the latest run citing it (of the answers that run kept), per provider id. */
  answers: { cited: number; byProvider: Record<string, number> };
  /** Each import of pages: its metrics and other columns for this page, by source. */
  sources: Record<string, { metrics: ImportedRow["metrics"]; extra: Record<string, string> }>;
  /** Verified AI crawler hits in the account's server logs, null without logs. */
  observed: number | null;
}

/** The pages view of the owner's site. */
export async function sitePages(deps: AnswersDeps, owner: Owner, input: string) {
  const { domain } = domainOf(input);
  await assertMayRun(deps, owner, domain);
  const imports = await deps.answers.imports<ImportMeta, ImportedRow>(owner, domain);
  const lines = new Map<string, PageLine>();
  const line = (path: string) => {
    let l = lines.get(path);
    if (!l) {
      l = { path, answers: { cited: 0, byProvider: {} }, sources: {}, observed: null };
      lines.set(path, l);
    }
    return l;
  };
  for (const imp of imports.filter((i) => i.table === "pages")) {
    for (const row of imp.rows) {
      line(pathOf(row.key)).sources[imp.source] = { metrics: row.metrics, extra: row.extra };
    }
  }
  const latest = (await deps.answers.listRuns(owner, domain, 5)).find((r) => r.status === "done");
  if (latest) {
    for (const s of await deps.answers.samples(latest.id)) {
      const paths = new Set(
        s.sources.filter((x) => x.kind === "cited" && x.host && sameSite(x.host, domain))
          .map((x) => pathOf(x.url)),
      );
      for (const p of paths) {
        const l = line(p);
        l.answers.cited++;
        l.answers.byProvider[s.provider] = (l.answers.byProvider[s.provider] ?? 0) + 1;
      }
    }
  }
  const observed = owner.kind === "account" && deps.observed
    ? await deps.observed(owner.accountId, domain)
    : null;
  if (observed) {
    for (const [path, hits] of observed) line(pathOf(path)).observed = hits;
    for (const l of lines.values()) l.observed ??= 0;
  }
  const weight = (l: PageLine) =>
    l.answers.cited * 1000 + Object.values(l.sources).reduce(
      (n, s) => n + Number(s.metrics.citations ?? s.metrics.impressions ?? 0),
      0,
    ) + (l.observed ?? 0);
  return {
    domain,
    imports: imports.map((i) => ({
      ...i.meta,
      label: FIRST_PARTY_SOURCES[i.meta.source]?.label ?? i.meta.source,
      docs: FIRST_PARTY_SOURCES[i.meta.source]?.docs ?? [],
      importedAt: new Date(i.meta.importedAt).toISOString(),
    })),
    latestRun: latest
      ? { id: latest.id, createdAt: new Date(latest.createdAt).toISOString() }
      : null,
    observedFromLogs: observed !== null,
    pages: [...lines.values()].sort((a, b) => weight(b) - weight(a) || a.path.localeCompare(b.path))
      .slice(0, 500),
    queries: imports.filter((i) => i.table === "queries").map((i) => ({
      source: i.source,
      rows: i.rows.slice(0, 200),
    })),
  };
}

function sameSite(host: string, domain: string): boolean {
  const h = host.toLowerCase();
  return h === domain || h.endsWith(`.${domain}`);
}
