/** "Learn more" (visibility service): the index and one page per signal. lib/app/routes.ts lists it. */
import type { RouteDef } from "../../kit/web/route.ts";
import { learnIndexRoute, learnRoute } from "./routes/learn.tsx";

/** The learn feature's routes. */
export const LEARN_ROUTES: readonly RouteDef[] = [learnIndexRoute, learnRoute];
