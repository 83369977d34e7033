/**
 * The server-log upload of the account's logs page (lib/features/logs/views/logs_page.tsx): the
 * site, the format (detected unless chosen) and the file, sent as the request's body (a log can be
 * hundreds of MB: never read into the page), with its progress: bytes sent, as the browser reports
 * them, and lines read, as the server reports them while its worker reads the stream. When the read
 * ends, what was read and a link to the site's logs report. Without JavaScript the page says how
 * to send a log to the API or the CLI instead.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { VNode } from "preact";
import { accountSiteLogsPath, fillPath, PATHS } from "../lib/kit/report_urls.ts";

/** Props (JSON, from the server; a type, so it fits Island's props). */
export type LogUploadProps = {
  /** The session's form token, sent as X-CSRF-Token. */
  csrf: string;
  /** The formats that can be chosen: [id, name]. */
  formats: [string, string][];
  /** The largest upload, in bytes. */
  maxBytes: number;
  /** The site filled in (the page of one site's logs), or "". */
  domain: string;
};

/** What the read answered. */
interface Done {
  domain: string;
  read: {
    format: string | null;
    detected: string | null;
    overridden: boolean;
    gzip: boolean;
    lines: number;
    crawlerLines: number;
    otherLines: number;
    unreadable: number;
    messages: string[];
  };
  report: { totals: { verified: number; spoofed: number; unverifiable: number } };
}

const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(n < 10 * MB ? 1 : 0);

/** The upload form. */
export function LogUpload(props: LogUploadProps): VNode {
  const [domain, setDomain] = useState(props.domain);
  const [format, setFormat] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<{ sent: number; total: number } | null>(null);
  const [lines, setLines] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const poll = useRef<ReturnType<typeof setInterval> | null>(null);
  const result = useRef<HTMLDivElement>(null);

  useEffect(() => setHydrated(true), []);
  useEffect(() => () => stopPolling(), []);
  useEffect(() => {
    if (done) result.current?.focus();
  }, [done]);

  function stopPolling() {
    if (poll.current !== null) clearInterval(poll.current);
    poll.current = null;
  }

  function submit(e: Event) {
    e.preventDefault();
    setError(null);
    setDone(null);
    const site = domain.trim();
    if (!site) return setError("Enter the site the log is of, such as example.com.");
    if (!file) return setError("Choose the log file.");
    if (file.size === 0) return setError("That file is empty.");
    if (file.size > props.maxBytes) {
      return setError(
        `That file is ${mb(file.size)} MB; the largest upload is ${mb(props.maxBytes)} MB.`,
      );
    }
    const id = crypto.randomUUID();
    const query = new URLSearchParams({ upload: id });
    if (format) query.set("format", format);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${accountSiteLogsPath(site)}?${query}`);
    xhr.setRequestHeader("accept", "application/json");
    xhr.setRequestHeader("x-csrf-token", props.csrf);
    xhr.upload.onprogress = (p) => setSent({ sent: p.loaded, total: p.total || file.size });
    xhr.onload = () => {
      stopPolling();
      setBusy(false);
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch { /* not JSON: said below */ }
      if (xhr.status === 200 && body && typeof body === "object" && "read" in body) {
        const d = body as Done;
        setLines(d.read.lines);
        setDone(d);
      } else {
        const message = body && typeof body === "object" && "error" in body
          ? String((body as { error: unknown }).error)
          : `The server answered ${xhr.status}.`;
        setError(message);
      }
    };
    xhr.onerror = () => {
      stopPolling();
      setBusy(false);
      setError("The upload was interrupted. Check the connection and try again.");
    };
    setBusy(true);
    setSent({ sent: 0, total: file.size });
    setLines(0);
    xhr.send(file);
    // Lines read, as the server's worker reads the stream.
    poll.current = setInterval(async () => {
      try {
        const res = await fetch(fillPath(PATHS.accountLogUpload, { id }), {
          headers: { accept: "application/json" },
          credentials: "same-origin",
        });
        if (res.ok) setLines((await res.json()).lines);
      } catch { /* the next poll tries again */ }
    }, 500);
  }

  const pct = sent && sent.total ? Math.round((sent.sent / sent.total) * 100) : 0;
  return (
    <form class="card log-upload" onSubmit={submit} aria-labelledby="upload-title" novalidate>
      <h2 id="upload-title">Read a log</h2>
      <div class="field">
        <label for="log-domain">Site</label>
        <input
          id="log-domain"
          name="domain"
          inputMode="url"
          autoComplete="off"
          placeholder="example.com"
          value={domain}
          onInput={(e) => setDomain((e.target as HTMLInputElement).value)}
          required
        />
      </div>
      <div class="field">
        <label for="log-format">Format</label>
        <select
          id="log-format"
          name="format"
          value={format}
          onChange={(e) => setFormat((e.target as HTMLSelectElement).value)}
        >
          <option value="">Detect from the content</option>
          {props.formats.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="log-file">Access log (plain or gzip, at most {mb(props.maxBytes)} MB)</label>
        <input
          id="log-file"
          name="file"
          type="file"
          onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
          required
        />
      </div>
      <button type="submit" class="button" disabled={!hydrated || busy}>
        {busy ? "Reading…" : "Read the log"}
      </button>
      <div role="status" aria-live="polite" class="log-progress">
        {sent && (busy || done) && (
          <>
            <progress
              max={100}
              value={pct}
              aria-label="Upload"
            >
              {pct}%
            </progress>
            <p class="small">
              <span data-sent>{mb(sent.sent)}</span> of {mb(sent.total)} MB sent ·{" "}
              <span data-lines>{lines.toLocaleString("en")}</span> lines read
            </p>
          </>
        )}
      </div>
      {error && <p class="notice error" role="alert">{error}</p>}
      {done && (
        <div class="notice success log-done" tabIndex={-1} ref={result}>
          <p>
            Read <strong data-total-lines>{done.read.lines.toLocaleString("en")}</strong> lines as
            {" "}
            {done.read.format ?? "an unknown format"}
            {done.read.overridden ? ` (chosen; the content looks like ${done.read.detected})` : ""}
            {done.read.gzip ? ", gzip" : ""}:{" "}
            <strong data-crawler-lines>
              {done.read.crawlerLines.toLocaleString("en")}
            </strong>{" "}
            from crawlers, {done.read.otherLines.toLocaleString("en")} other lines dropped,{" "}
            {done.read.unreadable.toLocaleString("en")} unreadable.
          </p>
          <p>
            Hits kept for {done.domain}:{" "}
            <strong data-verified>
              {done.report.totals.verified.toLocaleString("en")}
            </strong>{" "}
            verified,{" "}
            <strong data-spoofed>{done.report.totals.spoofed.toLocaleString("en")}</strong> spoofed,
            {" "}
            <strong data-unverifiable>
              {done.report.totals.unverifiable.toLocaleString("en")}
            </strong>{" "}
            unverifiable.
          </p>
          {done.read.messages.map((m, i) => <p key={i} class="small">{m}</p>)}
          <p>
            <a href={accountSiteLogsPath(done.domain)}>
              The logs report of {done.domain}
            </a>
          </p>
        </div>
      )}
    </form>
  );
}
