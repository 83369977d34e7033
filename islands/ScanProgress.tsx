/**
 * Live progress of a running scan, shown by /report/<domain> while the domain is in flight. It
 * polls GET /api/report/<domain>.json every 1.5 s (the spec's 1-2 s pattern) and, as soon as a
 * record other than the one the page was rendered with appears, loads the report. The page is
 * server-rendered from the in-flight mark, so a reload shows the same progress.
 */
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { reportJsonPath, reportPagePath } from "../lib/report_urls.ts";

export type ScanProgressProps = {
  domain: string;
  /** scannedAt of the record the page was rendered with (null: none yet). */
  knownScannedAt: string | null;
  /** How long the scan had been running when the page was rendered. */
  elapsedMs: number;
  /** What a scan does, in order, with the second at which each step usually starts. */
  steps: { label: string; at: number }[];
};

const POLL_MS = 1500;
const SLOW_AFTER_S = 45;

/** The progress card: steps, elapsed time, and the hand-over to the report. */
export function ScanProgress(props: ScanProgressProps): VNode {
  const [elapsed, setElapsed] = useState(Math.floor(props.elapsedMs / 1000));
  const [done, setDone] = useState(false);
  const [offline, setOffline] = useState(false);

  useEffect(() => {
    const started = Date.now() - props.elapsedMs;
    const tick = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 1000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const res = await fetch(reportJsonPath(props.domain), {
          cache: "no-store",
          headers: { accept: "application/json" },
        });
        setOffline(false);
        if (res.ok) {
          const record = await res.json() as { scannedAt?: string };
          if (record.scannedAt && record.scannedAt !== props.knownScannedAt) {
            stopped = true;
            setDone(true);
            location.replace(reportPagePath(props.domain));
            return;
          }
        } else await res.body?.cancel();
      } catch {
        setOffline(true);
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(tick);
      clearTimeout(timer);
    };
  }, []);

  let current = 0;
  props.steps.forEach((s, i) => {
    if (elapsed >= s.at) current = i;
  });
  return (
    <section class="card progress-card" aria-labelledby="progress-title">
      <h2 id="progress-title">
        {done ? "Scan finished: opening the report…" : `Scanning ${props.domain}…`}
      </h2>
      <progress class="scan-progress" aria-label={`Scan of ${props.domain} in progress`} />
      <ol class="steps">
        {props.steps.map((s, i) => (
          <li
            class={i < current || done ? "step done" : i === current ? "step current" : "step"}
            aria-current={i === current && !done ? "step" : undefined}
          >
            {s.label}
          </li>
        ))}
      </ol>
      <p class="muted">
        <span class="elapsed">{elapsed} s</span>{" "}
        elapsed. Most scans take 5 to 20 seconds. This page updates by itself; you can also leave
        and come back to this address.
      </p>
      {elapsed >= SLOW_AFTER_S && !done && (
        <p class="notice">
          This is taking longer than usual: the site may be slow to answer. Every scan ends within a
          minute or two, with a report or an explanation of what went wrong.
        </p>
      )}
      {offline && (
        <p class="notice error" role="alert">
          Lost contact with the server. Still trying…
        </p>
      )}
    </section>
  );
}
