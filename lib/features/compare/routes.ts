/** Compare sites (visibility service): the JSON and the page. lib/app/routes.ts lists it. */
import type { RouteDef } from "../../kit/web/route.ts";
import { compareJsonRoute } from "./routes/api/compare.json.ts";
import { comparePageRoute } from "./routes/compare.tsx";

/** The compare feature's routes. */
export const COMPARE_ROUTES: readonly RouteDef[] = [compareJsonRoute, comparePageRoute];
