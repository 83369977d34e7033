/** Browser entry of the account and admin pages: the sign-in forms, the key manager, the server-log upload, and the
 * theme toggle, local times and print (islands/comfort.ts). */
import { AuthForm } from "./AuthForm.tsx";
import { enableComfort } from "./comfort.ts";
import { enableCopyButtons } from "./copy.ts";
import { KeyManager } from "./KeyManager.tsx";
import { LogUpload } from "./LogUpload.tsx";
import { hydrateIslands } from "./hydrate.ts";

hydrateIslands({ AuthForm, KeyManager, LogUpload });
enableCopyButtons();
enableComfort();
