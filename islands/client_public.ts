/** Browser entry of the public pages: the scan form, live progress, the report's import form of a
 * watched site, copy buttons, and the
 * theme toggle, local times and print (islands/comfort.ts). */
import { enableComfort } from "./comfort.ts";
import { enableCopyButtons } from "./copy.ts";
import { ScanForm } from "./ScanForm.tsx";
import { ScanProgress } from "./ScanProgress.tsx";
import { ImportForm } from "./ImportForm.tsx";
import { hydrateIslands } from "./hydrate.ts";

hydrateIslands({ ScanForm, ScanProgress, ImportForm });
enableCopyButtons();
enableComfort();
