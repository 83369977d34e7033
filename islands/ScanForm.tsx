/**
 * The scan form's fields and behaviour. It is rendered inside a server-rendered
 * `<form method="get" action={PATHS.reportForm}>` (lib/kit/ui/scan_form.tsx) next to the challenge widget,
 * which stays outside the island so hydration never touches the widget's own DOM.
 *
 * Without JavaScript the form opens the stored report of the site. With it, submitting POSTs
 * `{url, turnstileToken, forceRescan, render}` to /api/scan (`render`, ticked or not, when the
 * form shows its checkbox, which it does only where the server can render) and then:
 * - 200 (a report younger than 24 h) or 202 (scan started): go to /report/<domain>, which shows
 *   the report, or the live progress while the scan runs (so a reload loses nothing);
 * - 400 / 403: say why, next to the field, and get a fresh challenge token;
 * - 429: say when new scans are possible again ("in 56 minutes", kept in sessionStorage so a
 *   reload and the other pages of the tab keep it). Only NEW scans are blocked: the home form stays
 *   usable, because a site scanned in the last 24 hours is served from cache (200) and counts
 *   toward no limit; the report pages' "Scan again" (always a new scan) waits.
 * The typed address is kept in sessionStorage too, so a reload or a way back finds it again.
 */
import type { VNode } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { pageReportPath, PATHS, reportPagePath } from "../lib/kit/report_urls.ts";
import { waitText } from "../lib/kit/ui/format.ts";
import { challengeRenewal } from "./challenge_renewal.ts";

export type ScanFormProps = {
  /** Label of the URL field (not needed with rescanUrl, which shows no field). */
  label?: string;
  /** A short hint under the label. */
  hint?: string;
  placeholder?: string;
  /** Text of the submit button. */
  button: string;
  /** The address the field starts with (a site not scanned yet, from a "Scan it" link). */
  value?: string;
  /** Rescan form: the domain (or, for the schema service, the page) to scan again; no URL field
   * is shown and forceRescan is sent. */
  rescanUrl?: string;
  /**
   * The label of the "render in a browser" checkbox, when the server can render: the POST sends
   * `render: true` when it is ticked and `render: false` when it is not (docs/rendering.md).
   * Without JavaScript the form's GET carries it, harmlessly (a stored report opens).
   */
  render?: string;
  /**
   * The checkbox starts ticked: the service renders by default (the schema service), or the
   * report being scanned again was rendered ("Scan again" keeps the choice).
   */
  renderChecked?: boolean;
  /**
   * The service keeps a report per page (the schema service): the form opens the report of the
   * page scanned (/report/<domain>/page?url=...), whose link keeps its meaning.
   */
  perPage?: boolean;
};

type Status =
  | { kind: "idle" }
  | { kind: "verifying" }
  | { kind: "sending" }
  | { kind: "leaving"; message: string }
  | { kind: "error"; message: string; field: boolean }
  /** `again`: a second 429 while already waiting (the site had no cached report either). */
  | { kind: "limited"; until: number; message: string; again?: boolean }
  | { kind: "unlimited" };

const RETRY_KEY = "scan-retry-until";
const URL_KEY = "scan-typed-url";
const TOKEN_WAIT_MS = 60_000;

/** The URL field, the submit button and the status line of a scan form. */
export function ScanForm(props: ScanFormProps): VNode {
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [now, setNow] = useState(0);

  // A wait started before a reload (or on another page of this tab) goes on; the address typed
  // before it is back in the field.
  useEffect(() => {
    const until = Number(sessionStorage.getItem(RETRY_KEY) ?? 0);
    if (until > Date.now()) {
      setStatus({ kind: "limited", until, message: "Too many new scans from your network." });
    }
    const typed = sessionStorage.getItem(URL_KEY);
    if (typed && input.current && !input.current.value) input.current.value = typed;
  }, []);

  // Tick once a second while limited; enable the form again at zero.
  useEffect(() => {
    if (status.kind !== "limited") return;
    setNow(Date.now());
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= status.until) {
        clearInterval(timer);
        sessionStorage.removeItem(RETRY_KEY);
        setStatus({ kind: "unlimited" });
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [status]);

  // The ALTCHA widget's script (~36 KB gzipped) is not part of the page load: it is fetched on
  // the first sign that the visitor will use the form, and solves while they type.
  useEffect(() => {
    const form = root.current?.closest("form");
    if (!form || !form.querySelector("[data-altcha-src]")) return;
    const load = () => void loadChallenge(form);
    const events = ["focusin", "pointerdown", "keydown"] as const;
    for (const e of events) form.addEventListener(e, load, { once: true, passive: true });
    return () => {
      for (const e of events) form.removeEventListener(e, load);
    };
  }, []);

  // The submit handler is on the enclosing server-rendered form, bound as soon as the island is
  // hydrated (a layout effect runs then; a plain effect waits for a frame).
  useLayoutEffect(() => {
    const form = root.current?.closest("form");
    if (!form) return;
    challengeRenewal(form); // watches the widget from its first challenge on
    // Capture phase, and no further listeners: the ALTCHA widget's own submit handler would
    // otherwise block a submit made while it is still solving; we wait for its token instead.
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      event.stopImmediatePropagation();
      void submit(form);
    };
    form.addEventListener("submit", onSubmit, { capture: true });
    return () => form.removeEventListener("submit", onSubmit, { capture: true });
  });

  // A forced rescan is always a new scan: it waits for the limit. The home form does not: the
  // site may have a cached report, which the server answers without counting it.
  const blocked = status.kind === "limited" && !!props.rescanUrl;

  async function submit(form: HTMLFormElement) {
    if (["verifying", "sending", "leaving"].includes(status.kind) || blocked) return;
    const limitedBefore = status.kind === "limited" ? status : null;
    const url = props.rescanUrl ?? input.current?.value.trim() ?? "";
    if (!props.rescanUrl && url) sessionStorage.setItem(URL_KEY, url);
    if (!url) {
      setStatus({ kind: "error", field: true, message: "Enter a domain, such as example.com." });
      input.current?.focus();
      return;
    }
    setStatus({ kind: "verifying" });
    const token = await challengeToken(form);
    if (!token) {
      setStatus({
        kind: "error",
        field: false,
        message: "The browser check did not finish. Reload the page and try again.",
      });
      return;
    }
    setStatus({ kind: "sending" });
    let res: Response;
    let body: { domain?: string; error?: string; retryAfterSeconds?: number } = {};
    try {
      res = await fetch(PATHS.scan, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          url,
          turnstileToken: token,
          ...(props.rescanUrl ? { forceRescan: true } : {}),
          ...renderChoice(form),
        }),
      });
      body = await res.json().catch(() => ({}));
    } catch {
      resetChallenge(form);
      setStatus({
        kind: "error",
        field: false,
        message: "The server could not be reached. Check your connection and try again.",
      });
      return;
    }
    if ((res.status === 200 || res.status === 202) && body.domain) {
      if (res.status === 202) sessionStorage.removeItem(RETRY_KEY);
      setStatus({
        kind: "leaving",
        message: res.status === 200 ? "Opening the report…" : "Scan started. Opening progress…",
      });
      location.assign(
        props.perPage ? pageReportPath(body.domain, url) : reportPagePath(body.domain),
      );
      return;
    }
    resetChallenge(form);
    if (res.status === 429) {
      const seconds = Math.max(1, Number(body.retryAfterSeconds) || 60);
      const until = Date.now() + seconds * 1000;
      sessionStorage.setItem(RETRY_KEY, String(until));
      // The countdown says when; the server's "Retry in N seconds." would only repeat it.
      const message = (body.error ?? "Too many new scans.").replace(
        /\s*Retry in \d+ seconds\.?$/,
        "",
      );
      setStatus({ kind: "limited", until, message, again: limitedBefore !== null });
    } else if (res.status === 400) {
      setStatus({ kind: "error", field: true, message: body.error ?? "That address looks wrong." });
      input.current?.focus();
    } else if (res.status === 403) {
      setStatus({
        kind: "error",
        field: false,
        message: "We could not verify that you are a person. Please try again.",
      });
    } else {
      setStatus({
        kind: "error",
        field: false,
        message: body.error
          ? `Something went wrong: ${body.error}`
          : `Something went wrong (HTTP ${res.status}). Please try again.`,
      });
    }
  }

  const busy = status.kind === "verifying" || status.kind === "sending" ||
    status.kind === "leaving";
  const fieldError = status.kind === "error" && status.field;
  return (
    <div class="scan-form" ref={root}>
      {props.rescanUrl
        ? <input type="hidden" name="url" value={props.rescanUrl} />
        : (
          <div class="field">
            <label for="url">
              {props.label}
              <span class="hint" id="url-hint">{props.hint}</span>
            </label>
            <input
              ref={input}
              id="url"
              name="url"
              type="text"
              inputMode="url"
              autoComplete="url"
              autoCapitalize="none"
              required
              placeholder={props.placeholder}
              // Written by the server (so the form works without JavaScript); in the browser the
              // field is the reader's, never reset by a re-render.
              value={typeof document === "undefined" ? props.value : undefined}
              aria-describedby="url-hint scan-status"
              aria-invalid={fieldError ? "true" : undefined}
            />
          </div>
        )}
      <button
        type="submit"
        class={props.rescanUrl ? "secondary" : undefined}
        disabled={busy || blocked}
        aria-describedby={props.rescanUrl ? "scan-status" : undefined}
      >
        {busy ? "Working…" : props.button}
      </button>
      {props.render && (
        <label class="render-option">
          <input type="checkbox" name="render" value="1" checked={props.renderChecked} />{" "}
          {props.render}
        </label>
      )}
      <div id="scan-status" class="scan-status" role="status" aria-live="polite">
        <StatusLine status={status} now={now} rescan={!!props.rescanUrl} />
      </div>
    </div>
  );
}

function StatusLine(props: { status: Status; now: number; rescan: boolean }): VNode | null {
  const s = props.status;
  switch (s.kind) {
    case "verifying":
      return <p class="status-line">Checking your browser (a few seconds of computing)…</p>;
    case "sending":
      return <p class="status-line">Starting the scan…</p>;
    case "leaving":
      return <p class="status-line">{s.message}</p>;
    case "error":
      return <p class="status-line error-text">{s.message}</p>;
    case "unlimited":
      return <p class="status-line">You can start a new scan again.</p>;
    case "limited": {
      const left = Math.max(0, Math.ceil((s.until - (props.now || Date.now())) / 1000));
      return (
        <div class="notice error limit-notice">
          <p>
            <strong>Limit reached.</strong> {s.again
              ? "That site has no report from the last 24 hours, so it needs a new scan."
              : s.message}
          </p>
          <p>
            You can start new scans again{" "}
            <span class="countdown" role="timer" aria-live="off">{waitText(left)}</span>.{" "}
            {props.rescan
              ? "This report, and any report scanned in the last 24 hours, still opens."
              : "Until then, a site scanned in the last 24 hours still opens from this form."}
          </p>
        </div>
      );
    }
    default:
      return null;
  }
}

/** The form's "render in a browser" choice, when it offers one: ticked or not, it is sent. */
function renderChoice(form: HTMLFormElement): { render?: boolean } {
  const box = form.elements.namedItem("render") as HTMLInputElement | null;
  return box ? { render: box.checked } : {};
}

type AltchaElement = HTMLElement & {
  verify?: () => Promise<unknown>;
  reset?: () => void;
  getState?: () => string;
};

/**
 * The challenge token in the form's `turnstileToken` field, waiting for the widget to finish
 * (ALTCHA solves in Web Workers; Turnstile runs invisibly). Starts ALTCHA if it has not started.
 */
async function challengeToken(form: HTMLFormElement): Promise<string | null> {
  const read = () =>
    (form.elements.namedItem("turnstileToken") as HTMLInputElement | null)?.value ?? "";
  // A token fetched too long ago would be refused: a fresh one first (islands/challenge_renewal.ts).
  const renewal = challengeRenewal(form);
  if (renewal.stale()) return await renewal.fresh(TOKEN_WAIT_MS);
  if (read()) return read();
  await loadChallenge(form);
  const altcha = form.querySelector<AltchaElement>("altcha-widget");
  const state = altcha?.getState?.();
  if (altcha && state !== "verifying" && state !== "verified") void altcha.verify?.();
  const end = Date.now() + TOKEN_WAIT_MS;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 150));
    if (read()) return read();
  }
  return null;
}

let challengeLoad: Promise<unknown> | null = null;

/**
 * Loads the ALTCHA widget once, if the form's widget is lazy (data-altcha-src): first its
 * stylesheet (data-altcha-css, linked with the id the widget looks for, so it injects no inline
 * style, which the CSP forbids), then its script.
 */
function loadChallenge(form: HTMLFormElement): Promise<unknown> {
  const lazy = form.querySelector<HTMLElement>("[data-altcha-src]");
  const src = lazy?.dataset.altchaSrc;
  if (!src || customElements.get("altcha-widget")) return Promise.resolve();
  challengeLoad ??= loadStylesheet(lazy?.dataset.altchaCss)
    .then(() => import(src))
    .then(() => customElements.whenDefined("altcha-widget"));
  return challengeLoad;
}

function loadStylesheet(href: string | undefined): Promise<void> {
  if (!href || document.getElementById("altcha-css")) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.id = "altcha-css";
    link.href = href;
    // A stylesheet that fails only looks worse: the widget still works.
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

/** A token is spent once the server has checked it: get a fresh one for the next try. */
function resetChallenge(form: HTMLFormElement): void {
  const altcha = form.querySelector<AltchaElement>("altcha-widget");
  if (altcha?.reset) {
    altcha.reset();
    void altcha.verify?.();
  }
  const turnstile = (globalThis as { turnstile?: { reset(): void } }).turnstile;
  if (turnstile && form.querySelector(".cf-turnstile")) turnstile.reset();
}
