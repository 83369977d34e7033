/**
 * What the off-site lookups answer, as zod schemas: one check per source, and the three together
 * (the `offSite` field of the visibility ScanRecord, ../shared/api/visibility.md).
 */
import { z } from "zod";

/** One source's answer: found, not found, or unknown (throttled, failed, odd body). */
export const OffSiteCheckSchema = z.object({
  status: z.enum(["found", "not_found", "unknown"]),
  detail: z.string(),
  url: z.string().nullable(),
});
export type OffSiteCheck = z.infer<typeof OffSiteCheckSchema>;

/** Wikidata, Wikipedia and Common Crawl together. */
export const OffSiteSchema = z.object({
  wikidata: OffSiteCheckSchema,
  wikipedia: OffSiteCheckSchema,
  commonCrawl: OffSiteCheckSchema,
});
export type OffSite = z.infer<typeof OffSiteSchema>;
