/**
 * The reader's comforts on every page (the public and account bundles import it; pages without
 * islands load it alone as the "comfort" bundle):
 * - the header's theme toggle (dark <-> light, remembered in localStorage; a choice equal to the
 *   system setting is forgotten, so the page follows the system again). The stored theme is
 *   applied before the first paint by the inline script of lib/kit/ui/comfort_script.ts;
 * - `<time data-local datetime="...">` shown in the reader's time zone (the server writes UTC, so
 *   without JavaScript the page still says an unambiguous time; the UTC value stays in `title`);
 * - every closed `<details>` opened before printing and closed again after (the print stylesheet
 *   shows their content too, for browsers that print without these events).
 */

const KEY = "theme";
type Theme = "dark" | "light";

function systemTheme(): Theme {
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** The theme the page shows now: the reader's choice, else the system's. */
export function currentTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  return chosen === "dark" || chosen === "light" ? chosen : systemTheme();
}

function syncToggles(): void {
  const dark = String(currentTheme() === "dark");
  for (const b of document.querySelectorAll(".theme-toggle")) {
    b.setAttribute("aria-pressed", dark);
  }
}

/** Switches dark <-> light and remembers the choice (or forgets it when it is the system's). */
export function toggleTheme(): void {
  const next: Theme = currentTheme() === "dark" ? "light" : "dark";
  const followsSystem = next === systemTheme();
  try {
    if (followsSystem) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  if (followsSystem) delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = next;
  syncToggles();
}

let format: Intl.DateTimeFormat | null = null;
let clockFormat: Intl.DateTimeFormat | null = null;
let dayClockFormat: Intl.DateTimeFormat | null = null;

/**
 * A moment in the reader's time zone: the full date and zone; or, for `data-local="short"`, the
 * time of day when it is today here ("15:59 (your time)"), else the day and the time.
 */
export function localText(when: Date, short: boolean, now = new Date()): string {
  format ??= new Intl.DateTimeFormat(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  });
  if (!short) return format.format(when);
  clockFormat ??= new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
  dayClockFormat ??= new Intl.DateTimeFormat(undefined, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  const today = when.toDateString() === now.toDateString();
  return `${(today ? clockFormat : dayClockFormat).format(when)} (your time)`;
}

/** Rewrites every `<time data-local>` still showing its UTC text in the reader's time zone. */
export function localiseTimes(root: ParentNode = document): void {
  for (const t of root.querySelectorAll<HTMLTimeElement>("time[data-local]")) {
    const when = new Date(t.dateTime);
    // Only a time still showing its UTC text (its title): rewriting it once ends the observer loop.
    if (!Number.isNaN(when.getTime()) && t.textContent === t.title) {
      t.textContent = localText(when, t.dataset.local === "short");
    }
  }
}

/** Wires the toggle, localises times (now and in rows islands add later), and print. */
export function enableComfort(): void {
  syncToggles();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", syncToggles);
  document.addEventListener("click", (e) => {
    const target = e.target as Element | null;
    if (target?.closest?.(".theme-toggle")) toggleTheme();
  });
  localiseTimes();
  new MutationObserver(() => localiseTimes()).observe(document.body, {
    childList: true,
    subtree: true,
  });
  addEventListener("beforeprint", () => {
    for (const d of document.querySelectorAll<HTMLDetailsElement>("details:not([open])")) {
      d.dataset.printOpened = "";
      d.open = true;
    }
  });
  addEventListener("afterprint", () => {
    for (const d of document.querySelectorAll<HTMLDetailsElement>("details[data-print-opened]")) {
      delete d.dataset.printOpened;
      d.open = false;
    }
  });
}
