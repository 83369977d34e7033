/**
 * GET /report/:domain: the shareable, server-rendered report of a domain's stored record (the
 * visibility report, or the schema service's result page), the live progress while a scan of it
 * runs, or a 404 page with a scan form. GET /report?url=... is the form's no-JavaScript path: it
 * redirects to the report of that site.
 */
import type { VNode } from "preact";
import type { Context } from "hono";
import { type AppDeps, type AppEnv, siteOrigin } from "../../../../kit/web/context.ts";
import type { ObservedColumn, ReportHistoryData } from "../../../../service.ts";
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
  changesFeedPath,
  pageReportPath,
  PATHS,
  reportPagePath,
  scanPagePath,
  scanStatusPath,
} from "../../../../kit/report_urls.ts";
import {
  changesOf,
  historyOf,
  latestOfPage,
  pagesOf,
  scanOf,
} from "../../../../engines/history/service.ts";
import { NotFoundError } from "../../../../kit/errors.ts";
import { formatUtc } from "../../../../kit/ui/format.ts";
import { answersOffer, answersPanel } from "../../../answers/panel.ts";
import {
  AnswerOfferSection,
  AnswerPresenceSection,
} from "../../../answers/views/answer_presence_section.tsx";

/** GET /report?url=...: the scan form's no-JavaScript path, to the report of that site. */
export const reportFormRoute: RouteDef = {
  path: "/report",
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
  // Answer presence: only for the signed-in account that watches the site (lib/features/answers/).
  const session = c.get("session");
  const answers = stored && session?.accountId && deps.answers
    ? await answersPanel(deps.answers, session.accountId, domain, session.csrf)
    : null;
  // A site the signed-in account does not watch: the offer to watch it and ask the assistants;
  // a visitor without an account: where to get one.
  const offer = stored && session?.accountId && deps.answers && !answers
    ? await answersOffer(deps.answers, session.accountId, domain, session.csrf)
    : null;
  // The observed column: only for the account whose server logs of the site are stored.
  const observed = stored && session?.accountId && deps.observedOf
    ? await deps.observedOf(session.accountId, domain)
    : null;
  const history = await historyParts(deps, domain, stored);
  const page = reportPage(c, deps, domain, stored, inflight, history, {
    extra: answers
      ? <AnswerPresenceSection panel={answers} />
      : offer
      ? <AnswerOfferSection offer={offer} />
      : stored && !session?.accountId
      ? <SignUpOffer domain={domain} />
      : undefined,
    observed: observed ?? undefined,
  });
  if (answers || observed) page.headers.set("Cache-Control", "private, no-store");
  // A run in progress: the page comes back by itself every 10 s, with its progress, and lands on
  // the results once the run ends (no script needed).
  // (With its URL: a bare "10" would reload a URL ending in #answers as a same-page jump.)
  if (answers?.running) page.headers.set("Refresh", `10; url=${reportPagePath(domain)}`);
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
  return reportPage(c, deps, domain, current, running, await historyParts(deps, domain, current), {
    page: url,
  });
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
  return reportPage(c, deps, domain, stored, null, await historyParts(deps, domain, stored), {
    kept: true,
  });
}

/**
 * The kept scans of a report and what changed against the scan before it (none before a second
 * scan): the service's report view places them (after a rescan, the change leads the page).
 */
async function historyParts(
  deps: AppDeps,
  domain: string,
  stored: StoredScan | null,
): Promise<ReportHistoryData | undefined> {
  if (!stored) return undefined;
  const all = await historyOf(deps.store, domain);
  if (!all.some((s) => s.id === stored.jobId)) return undefined;
  const diff = await changesOf(deps.store, domain, { to: stored.jobId }).catch(() => null);
  // A service that scans pages keeps a history per page: the scans of this record's page, and
  // the other pages of the site with their own reports.
  const url = (stored.record as { url?: unknown }).url;
  if (deps.service.watchTarget !== "page" || typeof url !== "string") {
    return { diff, scans: all, currentId: stored.jobId };
  }
  const pages = (await pagesOf(deps.store, domain)).map((p) => ({
    url: p.url,
    scannedAt: p.latest.scannedAt,
    status: p.latest.status,
    report: pageReportPath(domain, p.url),
  }));
  return {
    diff,
    scans: all.filter((s) => s.url === url),
    currentId: stored.jobId,
    pages,
    pageReport: pageReportPath(domain, url),
  };
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
  history: ReportHistoryData | undefined = undefined,
  options: { kept?: boolean; extra?: VNode; page?: string; observed?: ObservedColumn } = {},
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
    styles: ["/static/report.css"],
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
    image: `${origin}/static/og-${service}.png`,
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
  const view = deps.service.report(stored, {
    now,
    rescan,
    origin,
    scanId,
    badge,
    history,
    extra: options.extra,
    observed: options.observed,
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

/** On a report, for a visitor without an account: watching and asking need one (free). */
function SignUpOffer(props: { domain: string }) {
  return (
    <section class="card answer-offer" aria-labelledby="signup-offer-title">
      <h2 id="signup-offer-title">Watch {props.domain} and ask the AI assistants</h2>
      <p>
        With a free account you can watch this site (checked again every week or day, with an e-mail
        when it gets worse) and ask ChatGPT, Perplexity, Claude and Gemini about it: how often they
        name and cite it, beside its competitors.
      </p>
      <p>
        <a class="button" href="/account/signup">Create a free account</a>{" "}
        <a href="/account/login">or sign in</a>
      </p>
    </section>
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
        styles: ["/static/report.css"],
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
      shellFor(c, deps, { styles: ["/static/report.css"] }),
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
      styles: ["/static/report.css"],
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
