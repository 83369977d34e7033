/**
 * GET /report/:domain: the shareable, server-rendered report of a domain's stored record (the
 * visibility report, or the schema service's result page), the live progress while a scan of it
 * runs, or a 404 page with a scan form. GET /report?url=... is the form's no-JavaScript path: it
 * redirects to the report of that site.
 */
import type { Context } from "hono";
import { type AppDeps, type AppEnv, siteOrigin } from "../../../../kit/web/context.ts";
import type { ObservedColumn, ReportInserts } from "../../../../service.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { normaliseTarget } from "../../../../kit/net/target.ts";
import type { InflightMark, StoredScan } from "../../../../kit/storage/store.ts";
import { LocalTime } from "../../../../kit/ui/local_time.tsx";
import { Island, type PageMeta } from "../../../../kit/ui/layout.tsx";
import { renderPage } from "../../../../kit/web/render.tsx";
import { ScanFormBlock } from "../../../../kit/ui/scan_form.tsx";
import { shellFor } from "../../../../kit/web/shell.ts";
import { ScanProgress } from "../../../../../islands/ScanProgress.tsx";
import { badgeFor, badgeSize } from "../../../../kit/ui/badge.ts";
import {
  ASSETS,
  changesFeedPath,
  pageReportPath,
  PATHS,
  reportPagePath,
  scanPagePath,
  scanStatusPath,
  staticPath,
} from "../../../../kit/report_urls.ts";
import { latestOfPage, scanOf } from "../../../../engines/history/service.ts";
import { loadSections, type ReportPage } from "../../../../kit/web/report_sections.ts";
import { NotFoundError } from "../../../../kit/errors.ts";
import { formatUtc } from "../../../../kit/ui/format.ts";

/** GET /report?url=...: the scan form's no-JavaScript path, to the report of that site. */
export const reportFormRoute: RouteDef = {
  path: PATHS.reportForm,
  handlers: (deps) => ({
    GET: (c) => {
      const domain = domainOf(c.req.query("url") ?? "");
      if (!domain) return notFound(c, deps, null);
      return c.redirect(reportPagePath(domain), 303);
    },
  }),
};

/** GET /report/:domain: the report of a domain's latest record (or its scan's progress). */
export const reportPageRoute: RouteDef = {
  path: PATHS.reportPage,
  viewsRecords: true,
  handlers: (deps) => ({ GET: (c) => latestReport(c, deps) }),
};

/**
 * GET /report/:domain/page?url=...: the report of one page of a domain (a service that scans
 * pages: the schema service), its latest scan whatever page was scanned last, with that page's
 * own history; its URL never changes meaning.
 */
export const pageReportRoute: RouteDef = {
  path: PATHS.pageReport,
  viewsRecords: true,
  servedBy: (service) => service.watchTarget === "page",
  handlers: (deps) => ({ GET: (c) => pageReport(c, deps) }),
};

/** GET /report/:domain/scans/:id: one kept scan, forever (lib/kit/storage/history.ts). */
export const keptScanPageRoute: RouteDef = {
  path: PATHS.keptScanPage,
  viewsRecords: true,
  handlers: (deps) => ({ GET: (c) => keptScanReport(c, deps) }),
};

async function latestReport(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const raw = param(c, "domain");
  const domain = domainOf(raw);
  if (!domain) return notFound(c, deps, null);
  if (domain !== raw) return c.redirect(reportPagePath(domain), 301);
  const [stored, inflight] = await Promise.all([
    deps.store.getScan(domain),
    deps.store.getInflight(domain),
  ]);
  if (!stored && !inflight) return notFound(c, deps, domain);
  // What other features show (what changed, answer presence for the signed-in account).
  const reader = readerOf(c);
  const sections = stored
    ? await loadSections(deps.reportSections ?? [], { domain, stored, view: "latest", reader })
    : null;
  // The observed column: only for the account whose server logs of the site are stored.
  const observed = stored && reader && deps.observedOf
    ? await deps.observedOf(reader.accountId, domain)
    : null;
  const page = reportPage(c, deps, domain, stored, inflight, sections?.inserts, {
    observed: observed ?? undefined,
  });
  if (sections?.private || observed) page.headers.set("Cache-Control", "private, no-store");
  // Something in progress (an answer-presence run): the page comes back by itself, with its
  // progress, and lands on the results once it ends (no script needed). (With its URL: a bare
  // "10" would reload a URL ending in #answers as a same-page jump.)
  if (sections?.refreshSeconds) {
    page.headers.set("Refresh", `${sections.refreshSeconds}; url=${reportPagePath(domain)}`);
  }
  return page;
}

async function pageReport(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const raw = param(c, "domain");
  const domain = domainOf(raw);
  if (!domain) return notFound(c, deps, null);
  const asked = c.req.query("url") ?? "";
  const url = pageOf(asked, domain);
  if (!url) return notFound(c, deps, domain);
  if (domain !== raw || url !== asked) return c.redirect(pageReportPath(domain, url), 301);
  const [stored, inflight] = await Promise.all([
    deps.store.getScan(domain),
    deps.store.getInflight(domain),
  ]);
  // A scan of another page of the domain is not this page's progress.
  const running = inflight?.url === url ? inflight : null;
  let current = (stored?.record as { url?: unknown } | undefined)?.url === url ? stored : null;
  if (!current) {
    const latest = await latestOfPage(deps.store, domain, url);
    if (latest) {
      current = {
        record: latest.record,
        failure: latest.entry.failure ?? null,
        credential: "pipeline",
        durationMs: 0,
        jobId: latest.entry.id,
      };
    }
  }
  if (!current && !running) return notFound(c, deps, domain, undefined, url);
  const sections = current
    ? await loadSections(deps.reportSections ?? [], {
      domain,
      stored: current,
      view: "page",
      reader: readerOf(c),
    })
    : null;
  const page = reportPage(c, deps, domain, current, running, sections?.inserts, { page: url });
  if (sections?.private) page.headers.set("Cache-Control", "private, no-store");
  return page;
}

/** The page a `url` parameter names on `domain` (normalised), or null. */
function pageOf(input: string, domain: string): string | null {
  try {
    const t = normaliseTarget(input);
    return t.domain === domain ? t.pageUrl ?? t.url : null;
  } catch {
    return null;
  }
}

// One kept scan, forever (lib/kit/storage/history.ts): the same report, as it was then.
async function keptScanReport(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const raw = param(c, "domain");
  const domain = domainOf(raw);
  if (!domain) return notFound(c, deps, null);
  const id = param(c, "id");
  if (domain !== raw) return c.redirect(scanPagePath(domain, id), 301);
  let kept;
  try {
    kept = await scanOf(deps.store, domain, id);
  } catch (e) {
    if (e instanceof NotFoundError) return notFound(c, deps, domain, id);
    throw e;
  }
  const stored: StoredScan = {
    record: kept.record,
    failure: kept.entry.failure ?? null,
    credential: "pipeline",
    durationMs: 0,
    jobId: id,
  };
  const sections = await loadSections(deps.reportSections ?? [], {
    domain,
    stored,
    view: "kept",
    reader: readerOf(c),
  });
  const page = reportPage(c, deps, domain, stored, null, sections.inserts, { kept: true });
  if (sections.private) page.headers.set("Cache-Control", "private, no-store");
  return page;
}

/** The signed-in account reading the page, if any (the sections of its own). */
function readerOf(c: Context<AppEnv>): ReportPage["reader"] {
  const session = c.get("session");
  return session?.accountId ? { accountId: session.accountId, csrf: session.csrf } : null;
}

function domainOf(input: string): string | null {
  try {
    return normaliseTarget(input).domain;
  } catch {
    return null;
  }
}

function reportPage(
  c: Context<AppEnv>,
  deps: AppDeps,
  domain: string,
  stored: StoredScan | null,
  inflight: InflightMark | null,
  inserts: ReportInserts | undefined = undefined,
  options: { kept?: boolean; page?: string; observed?: ObservedColumn } = {},
): Response {
  const service = deps.service.name;
  const origin = siteOrigin(c, deps.config.trustProxy);
  const now = deps.now();
  const progress = inflight && (
    <Island
      name="ScanProgress"
      component={ScanProgress}
      props={{
        domain,
        statusUrl: scanStatusPath(inflight.jobId),
        knownScannedAt: stored?.record.scannedAt ?? null,
        elapsedMs: Math.max(0, now - inflight.since),
        // The rendering row only for a scan that renders (the mark says so).
        steps: deps.service.progress.filter((row) => !row.rendering || inflight.render),
        // A page's report comes back to that page's report when the scan is done.
        ...(options.page ? { reportUrl: pageReportPath(domain, options.page) } : {}),
      }}
    />
  );
  const shell = shellFor(c, deps, {
    islands: true,
    challenge: deps.challenge.widget,
    challengeScript: "lazy",
    styles: [ASSETS.reportCss],
  });
  const eyebrow = deps.service.words.reportKind;
  if (!stored) {
    return renderPage(
      c,
      {
        title: `Scanning ${domain}`,
        description: `A scan of ${domain} is running.`,
        noindex: true,
      },
      shell,
      <article class="report">
        <header class="report-head">
          <p class="eyebrow">{eyebrow}</p>
          <h1>{domain}</h1>
        </header>
        {progress}
      </article>,
    );
  }
  const rescanUrl = deps.service.rescanTarget?.(stored.record) ?? domain;
  const rescan = (
    <ScanFormBlock
      widget={deps.challenge.widget}
      form={deps.service.words.form}
      rescanUrl={rescanUrl}
      // "Scan again" keeps the render choice of the report it rescans, or offers it.
      canRender={deps.config.render.browser.kind !== "off"}
      renderChecked={deps.service.wasRendered?.(stored.record) ?? false}
      perPage={deps.service.watchTarget === "page"}
    />
  );
  const meta: PageMeta = {
    title: "",
    description: "",
    canonical: `${origin}${
      options.kept
        ? scanPagePath(domain, stored.jobId)
        : options.page
        ? pageReportPath(domain, options.page)
        : reportPagePath(domain)
    }`,
    image: `${origin}${staticPath(`og-${service}.png`)}`,
    // The domain's feed of changes, where a feed reader (or a browser) finds it from the report.
    alternates: [{
      type: "application/atom+xml",
      href: `${origin}${changesFeedPath(domain)}`,
      title: `What changed on ${domain}`,
    }],
  };
  const scanId = options.kept ? stored.jobId : undefined;
  const spec = badgeFor(deps.service, stored.record);
  const badge = { alt: deps.service.words.badgeAlt, ...badgeSize(spec) };
  // A service that scans pages: the page's own report, whose link never changes meaning.
  const url = (stored.record as { url?: unknown }).url;
  const pageReport = deps.service.watchTarget === "page" && typeof url === "string"
    ? pageReportPath(domain, url)
    : undefined;
  const view = deps.service.report(stored, {
    now,
    rescan,
    origin,
    scanId,
    badge,
    inserts,
    observed: options.observed,
    ...(pageReport ? { pageReport } : {}),
  });
  meta.title = view.title;
  meta.description = view.description;
  const body = view.body;
  // A failed scan is not worth indexing; a report is.
  if (stored.record.status !== "ok") meta.noindex = true;
  if (options.kept) {
    meta.noindex = true;
    meta.title = `${meta.title} (scan of ${formatUtc(stored.record.scannedAt)})`;
  }
  return renderPage(
    c,
    meta,
    shell,
    <>
      {options.kept && (
        <p class="notice kept-scan">
          This is the scan of <LocalTime iso={stored.record.scannedAt} />, kept as it was.{" "}
          <a href={reportPagePath(domain)}>See the latest report of {domain}</a>.
        </p>
      )}
      {progress}
      {body}
    </>,
  );
}

function notFound(
  c: Context<AppEnv>,
  deps: AppDeps,
  domain: string | null,
  scanId?: string,
  /** A page of the domain that was never scanned (or whose scans are no longer kept). */
  page?: string,
): Response {
  if (domain && page !== undefined) {
    return renderPage(
      c,
      { title: `No report for ${page} yet`, description: "Not scanned yet.", noindex: true },
      shellFor(c, deps, {
        islands: true,
        challenge: deps.challenge.widget,
        challengeScript: "lazy",
        styles: [ASSETS.reportCss],
      }),
      <>
        <h1>No report for this page yet</h1>
        <p class="lead">
          {page}{" "}
          has not been scanned yet, or its scans are older than the ones this service keeps. Scan it
          now, or{" "}
          <a href={reportPagePath(domain)}>
            see the last page scanned on {domain}
          </a>.
        </p>
        <ScanFormBlock
          widget={deps.challenge.widget}
          form={deps.service.words.form}
          value={page}
          perPage
        />
      </>,
      404,
    );
  }
  if (domain && scanId !== undefined) {
    return renderPage(
      c,
      { title: `No such scan of ${domain}`, description: "No such scan.", noindex: true },
      shellFor(c, deps, { styles: [ASSETS.reportCss] }),
      <>
        <h1>No such scan of {domain}</h1>
        <p class="lead">
          This scan does not exist, or it is older than the scans this service keeps.{" "}
          <a href={reportPagePath(domain)}>See the latest report of {domain}</a>.
        </p>
      </>,
      404,
    );
  }
  return renderPage(
    c,
    {
      title: domain ? `No report for ${domain} yet` : "Not a domain name",
      description: "This site has not been scanned yet.",
      noindex: true,
    },
    shellFor(c, deps, {
      islands: true,
      challenge: deps.challenge.widget,
      challengeScript: "lazy",
      styles: [ASSETS.reportCss],
    }),
    <>
      <h1>{domain ? `No report for ${domain} yet` : "That is not a domain name we can look up"}</h1>
      <p class="lead">
        {domain
          ? "Nobody has scanned this site yet. Scan it now: it takes a few seconds."
          : "Enter a domain such as example.com, or a full address such as https://www.example.com/."}
      </p>
      <ScanFormBlock
        widget={deps.challenge.widget}
        form={deps.service.words.form}
        value={domain ?? undefined}
        perPage={deps.service.watchTarget === "page"}
      />
    </>,
    404,
  );
}
