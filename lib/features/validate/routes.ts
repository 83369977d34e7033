/** Validate code in hand (schema service): the API and the page. lib/app/routes.ts lists it. */
import type { RouteDef } from "../../kit/web/route.ts";
import { validateRoute } from "./routes/api/validate.ts";
import { validatePageRoute } from "./routes/validate.tsx";

/** The validate feature's routes. */
export const VALIDATE_ROUTES: readonly RouteDef[] = [validateRoute, validatePageRoute];
