/**
 * What other features add to the account page (GET /account, lib/features/accounts/): each a
 * section the app hands the page (AppDeps.accountSections, built in lib/app/sections.ts), loaded
 * for the signed-in account and rendered in the list's order. A section's forms post to its own
 * feature's routes; what they leave for the next view travels in the session's one-time flash
 * under the section's id ({@link AccountFlash}), and a form refused without JavaScript shows the
 * page again with the form in place by throwing {@link RefusedAccountForm}, which the account
 * group's error page turns into the account page. So the account feature and a section's feature
 * never import each other.
 */
import type { VNode } from "preact";
import { HttpError } from "../errors.ts";
import type { Notice } from "../../../islands/KeyManager.tsx";

/** Who the page is for: the account, and its session's form token (the section's forms carry it). */
export interface AccountView {
  accountId: string;
  csrf: string;
  /** Where this instance is reached, for absolute links (PUBLIC_URL, else the request's origin). */
  origin: string;
}

/** A section of the account page. */
export interface AccountSection {
  /** Its name: the key of what its forms leave for it ({@link AccountFlash.sections}). */
  id: string;
  /**
   * Its view for the account, or null when it shows nothing (the operator turned its feature
   * off). `left`: what its last form left (a flash from a post, or a refused form), as the
   * section's own routes wrote it.
   */
  render(account: AccountView, left: unknown): Promise<VNode | null>;
}

/** What a form post leaves for the next view of the account page (the session's flash). */
export interface AccountFlash {
  /** A line at the top of the page (a key revoked, a watch removed). */
  notice?: Notice | null;
  /** Each section's part, by its id. */
  sections?: Record<string, unknown>;
}

/**
 * A section's form refused (400, 409...) for a browser without JavaScript: the answer is the
 * account page again, with `left` given to the section `section` (the typed values and why they
 * were refused). A fetch asking for JSON gets the cause's JSON instead.
 */
export class RefusedAccountForm extends HttpError {
  override name = "RefusedAccountForm";
  constructor(readonly section: string, readonly left: unknown, cause: HttpError) {
    super(cause.status, cause.message);
  }
}
