/** Browser entry of the account and admin pages: the sign-in forms and the key manager. */
import { AuthForm } from "./AuthForm.tsx";
import { enableCopyButtons } from "./copy.ts";
import { KeyManager } from "./KeyManager.tsx";
import { hydrateIslands } from "./hydrate.ts";

hydrateIslands({ AuthForm, KeyManager });
enableCopyButtons();
