/** Browser entry of the public pages: the scan form, live progress, copy buttons, and the
 * theme toggle, local times and print (islands/comfort.ts). */
import { enableComfort } from "./comfort.ts";
import { enableCopyButtons } from "./copy.ts";
import { ScanForm } from "./ScanForm.tsx";
import { ScanProgress } from "./ScanProgress.tsx";
import { hydrateIslands } from "./hydrate.ts";

hydrateIslands({ ScanForm, ScanProgress });
enableCopyButtons();
enableComfort();
