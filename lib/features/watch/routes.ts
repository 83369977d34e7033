/**
 * Watches (docs/watch.md): the changes feed, the watch API and the account page's watch forms.
 * lib/app/routes.ts lists it.
 */
import type { RouteDef } from "../../kit/web/route.ts";
import type { WatchAppDeps } from "./context.ts";
import { changesFeedRoute } from "./routes/api/report/[domain]_feed.ts";
import { watchesRoute, watchRoute, watchTestRoute } from "./routes/api/watches.ts";
import { accountWatchDeleteRoute, accountWatchesRoute } from "./routes/account/watches.ts";

/** The watch feature's routes. */
export const WATCH_ROUTES: readonly RouteDef<WatchAppDeps>[] = [
  changesFeedRoute,
  watchesRoute,
  watchRoute,
  watchTestRoute,
  accountWatchesRoute,
  accountWatchDeleteRoute,
];
