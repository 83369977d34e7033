/**
 * Answer presence's refusals, typed here and mapped to HTTP once (lib/kit/web/errors.ts reads
 * HttpError): every one is a 4xx with a JSON body saying what to do.
 */
import { HttpError, RateLimitedError } from "../../kit/errors.ts";

/** 403: the account does not watch the site. */
export class NotWatchedError extends HttpError {
  override name = "NotWatchedError";
  constructor(domain: string) {
    super(
      403,
      `Answer presence runs for the sites an account watches: add ${domain} to your watch list ` +
        "first (POST /api/watches, or the dashboard).",
    );
  }
}

/** 409: no provider has a key (the operator's, or the account's own where allowed). */
export class NotConfiguredError extends HttpError {
  override name = "NotConfiguredError";
  constructor(message: string) {
    super(409, message);
  }
}

/** 409: a run of this site by this owner has not finished. */
export class RunInProgressError extends HttpError {
  override name = "RunInProgressError";
  constructor(readonly runId: string) {
    super(409, "A run of this site is in progress: wait for it (GET its link) before another.");
  }
  override body(): Record<string, unknown> {
    return { error: this.message, runId: this.runId };
  }
}

/** 429: the run would exceed a budget of calls per day; nothing was reserved or spent. */
export class AnswersBudgetError extends RateLimitedError {
  override name = "AnswersBudgetError";
  constructor(
    readonly budget: {
      scope: "account" | "share" | "accounts" | "global";
      used: number;
      limit: number;
      needed: number;
    },
    retryAfterSeconds: number,
  ) {
    const left = Math.max(0, budget.limit - budget.used);
    super(
      {
        account: `This run needs ${budget.needed} calls and your account has ${left} of its ` +
          `${budget.limit} calls left today (UTC). Nothing was spent; ask fewer questions, or ` +
          "try again tomorrow.",
        share: `This run needs ${budget.needed} calls on the instance's keys and your account ` +
          `has ${left} of its fair share of ${budget.limit} left today (UTC). Nothing was spent; ` +
          "ask fewer questions, add your own vendor key, or try again tomorrow.",
        accounts: `This run needs ${budget.needed} calls on the instance's keys and the accounts ` +
          `together have ${left} of their ${budget.limit} left today (UTC); the rest is kept ` +
          "for the operator. Nothing was spent; try again tomorrow.",
        global: `This run needs ${budget.needed} calls on the instance's keys and ${left} of the ` +
          `${budget.limit} allowed today (UTC) are left. Nothing was spent; try again tomorrow.`,
      }[budget.scope],
      retryAfterSeconds,
    );
  }
  override body(): Record<string, unknown> {
    return { ...super.body(), budget: this.budget };
  }
}

/** 403: the operator's keys are settings, not something the API stores. */
export class OperatorKeysError extends HttpError {
  override name = "OperatorKeysError";
  constructor() {
    super(
      403,
      "The operator's vendor keys are settings (OPENAI_API_KEY, ...): use an account's key here.",
    );
  }
}
