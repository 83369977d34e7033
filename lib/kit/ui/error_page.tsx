/**
 * The error page of the account and administrator pages (lib/kit/web/page_errors.tsx renders it for a
 * refused form post): the status's title, the error's sentence, and the way back.
 */
import type { VNode } from "preact";
import { ASSETS } from "../report_urls.ts";

const TITLES: Record<number, string> = {
  400: "That did not work",
  401: "Please sign in",
  403: "Request refused",
  404: "Not found",
  405: "Method not allowed",
  409: "That did not work",
  413: "Form too large",
  415: "Unsupported form",
  429: "Too many attempts",
};

/** The stylesheet of the account and administrator pages. */
export const ACCOUNT_STYLES = [ASSETS.accountsCss];

/** The page title of an error status. */
export function errorTitle(status: number): string {
  return TITLES[status] ?? "Something went wrong";
}

/** The body of an error page. */
export function ErrorPage(
  props: { title: string; message: string; retryAfterSeconds?: number; back: string },
): VNode {
  return (
    <div class="narrow">
      <h1>{props.title}</h1>
      <p class="notice error" role="alert">{props.message}</p>
      {props.retryAfterSeconds !== undefined && (
        <p data-retry-after={String(props.retryAfterSeconds)}>
          You can try again in {props.retryAfterSeconds} seconds.
        </p>
      )}
      <p>
        <a href={props.back}>Back</a>
      </p>
    </div>
  );
}
