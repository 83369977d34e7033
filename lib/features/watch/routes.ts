/**
 * Watches (docs/watch.md): the changes feed, the watch API and the account page's watch forms.
 * lib/app/routes.ts lists it.
 */
import type { RouteDef } from "../../kit/web/route.ts";
import type { WatchAppDeps } from "./context.ts";
import { changesFeedRoute } from "./routes/api/report/[domain]_feed.ts";
import { watchEmailConfirmRoute, watchEmailUnsubscribeRoute } from "./routes/watch/email.tsx";
import { watchesRoute, watchRoute, watchRunRoute, watchTestRoute } from "./routes/api/watches.ts";
import {
  accountWatchDeleteRoute,
  accountWatchesRoute,
  accountWatchRunRoute,
} from "./routes/account/watches.ts";

/** The watch feature's routes. */
export const WATCH_ROUTES: readonly RouteDef<WatchAppDeps>[] = [
  changesFeedRoute,
  watchesRoute,
  watchRoute,
  watchTestRoute,
  watchRunRoute,
  accountWatchesRoute,
  accountWatchDeleteRoute,
  accountWatchRunRoute,
  watchEmailConfirmRoute,
  watchEmailUnsubscribeRoute,
];
