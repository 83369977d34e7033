/** Browser entry of the pages without islands (administration, error pages): comfort only. */
import { enableComfort } from "./comfort.ts";

enableComfort();
