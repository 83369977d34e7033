/** Browser entry of the public pages: the scan form, live progress and copy buttons. */
import { enableCopyButtons } from "./copy.ts";
import { ScanForm } from "./ScanForm.tsx";
import { ScanProgress } from "./ScanProgress.tsx";
import { hydrateIslands } from "./hydrate.ts";

hydrateIslands({ ScanForm, ScanProgress });
enableCopyButtons();
