/**
 * The report's form that imports a first-party export (Bing AI Performance, Search Console) for a
 * watched site: the chosen CSV file is read in the browser and posted as `text/csv` with the
 * session's form token to /account/answers/:domain/imports (lib/features/answers/), which reads it
 * in a scan thread. Without JavaScript the form says to use the API instead.
 */
import { useState } from "preact/hooks";
import type { VNode } from "preact";

import { fillPath, PATHS } from "../lib/kit/report_urls.ts";
/** The island's props. */
export interface ImportFormProps {
  domain: string;
  csrf: string;
  [key: string]: unknown;
}

/** The form. */
export function ImportForm(props: ImportFormProps): VNode {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const file = (form.elements.namedItem("file") as HTMLInputElement).files?.[0];
    const source = (form.elements.namedItem("source") as HTMLSelectElement).value;
    if (!file) return setStatus({ ok: false, text: "Choose the exported CSV file first." });
    setBusy(true);
    try {
      const res = await fetch(
        `${fillPath(PATHS.accountAnswerImports, { domain: props.domain })}?source=${source}`,
        {
          method: "POST",
          headers: { "content-type": "text/csv", "x-csrf-token": props.csrf },
          body: await file.text(),
        },
      );
      const body = await res.json().catch(() => ({}));
      setStatus(
        res.ok
          ? {
            ok: true,
            text: `Imported ${body.import?.rows ?? 0} rows (${body.import?.table}). Reload the ` +
              "page to see them beside the answers.",
          }
          : { ok: false, text: String(body.error ?? `The import failed (${res.status}).`) },
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="import-form" onSubmit={submit} method="post" action="#">
      <label for="import-source">Export</label>
      <select id="import-source" name="source">
        <option value="bing-ai">Bing Webmaster Tools: AI Performance (pages or queries)</option>
        <option value="gsc">Search Console: Performance (Pages.csv or Queries.csv)</option>
        <option value="gsc-ai">Search Console: Generative AI</option>
      </select>
      <label for="import-file">CSV file</label>
      <input id="import-file" name="file" type="file" accept=".csv,text/csv" />
      <button type="submit" disabled={busy}>{busy ? "Importing…" : "Import"}</button>
      {status && (
        <p
          class={status.ok ? "notice success" : "error-text"}
          role={status.ok ? "status" : "alert"}
        >
          {status.text}
        </p>
      )}
    </form>
  );
}
