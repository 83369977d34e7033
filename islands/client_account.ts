/** Browser entry of the account and admin pages: the sign-in forms, the key manager, and the
 * theme toggle, local times and print (islands/comfort.ts). */
import { AuthForm } from "./AuthForm.tsx";
import { enableComfort } from "./comfort.ts";
import { enableCopyButtons } from "./copy.ts";
import { KeyManager } from "./KeyManager.tsx";
import { hydrateIslands } from "./hydrate.ts";

hydrateIslands({ AuthForm, KeyManager });
enableCopyButtons();
enableComfort();
