/**
 * Every island, by the name pages give it in `data-island`. Add an island here and render it with
 * `<Island name="..." component={...} props={...} />` (lib/ui/layout.tsx).
 */
import type { ComponentType } from "preact";
import { AuthForm } from "./AuthForm.tsx";
import { CopyButton } from "./CopyButton.tsx";
import { KeyManager } from "./KeyManager.tsx";
import { ScanForm } from "./ScanForm.tsx";
import { ScanProgress } from "./ScanProgress.tsx";

// deno-lint-ignore no-explicit-any
export const ISLANDS: Record<string, ComponentType<any>> = {
  AuthForm,
  CopyButton,
  KeyManager,
  ScanForm,
  ScanProgress,
};
