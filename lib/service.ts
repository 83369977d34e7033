/**
 * A service is what differs between the AI Visibility Checker and the Schema Markup Generator:
 * its name (which prefixes its KV keys), its API key prefix, its record schema and its scanner.
 * Everything else (API, limits, cache, queue, accounts, MCP) is shared and takes a ServiceDef.
 */
import type { z } from "zod";
import type { Config } from "./config.ts";
import { SERVICE_WORDS, type ServiceName, type ServiceWords } from "./service_words.ts";
import type { Target } from "./scan/domain.ts";
import { type ScanRecord, ScanRecordSchema } from "./visibility/record.ts";
import { scanSite } from "./visibility/scan.ts";
import { type SchemaScanRecord, SchemaScanRecordSchema } from "./structured/record.ts";
import { scanPage } from "./schema/scan.ts";

/** The fields every service's ScanRecord has. */
export interface BaseRecord {
  domain: string;
  status: "ok" | "failed";
  scannedAt: string;
  result: unknown;
}

/** What a scan run produces: the public record and, when it failed, why. */
export interface RunOutcome<R extends BaseRecord = BaseRecord> {
  record: R;
  failure: string | null;
}

/** One of the two services. */
export interface ServiceDef<R extends BaseRecord = BaseRecord> {
  name: ServiceName;
  /** What pages, exports, badges, the form and the docs call this service's things. */
  words: ServiceWords;
  /** Human name, for logs and pages. */
  title: string;
  /** API keys of this service start with it. */
  keyPrefix: "uvk_" | "usk_";
  recordSchema: z.ZodType<R>;
  /** Runs one scan; must not throw for anything the scanned site does. */
  run(
    target: Target,
    deps: {
      config: Config;
      now: () => Date;
      signal?: AbortSignal;
      /** Told each step the scan starts (the scan's status URL shows it). */
      onProgress?: (step: string) => void;
    },
  ): Promise<RunOutcome<R>>;
  /**
   * Whether a fresh stored record answers a request for `target` (default: always). The schema
   * service stores one page per domain, so a record of another page of the domain does not.
   */
  servesCached?(record: R, target: Target): boolean;
  /** What the service does, after its title ("The <title> <summary>."): the OpenAPI summary. */
  summary?: string;
  /** The fields of a failed record beyond domain, status, scannedAt and result. */
  failedRecordFields?(job: { url: string; pageUrl?: string }): Record<string, unknown>;
  /** What "Scan again" on a record's page scans (default: the record's domain). */
  rescanTarget?(record: R): string;
  /** Registers the MCP prompts (lib/mcp/resources.ts): the visibility action plan. */
  mcpPrompts?: boolean;
  /** Serves POST /api/validate and /validate (validate JSON-LD code in hand). */
  validatesCode?: boolean;
  /**
   * Serves GET /compare and /api/compare.json (lib/compare/): sites side by side. The schema
   * service does not: its record is one page of a site, so two records are not two sites.
   */
  comparesSites?: boolean;
}

/** The AI Visibility Checker. */
export const visibilityService: ServiceDef<ScanRecord> = {
  name: "visibility",
  words: SERVICE_WORDS.visibility,
  title: SERVICE_WORDS.visibility.title,
  mcpPrompts: true,
  keyPrefix: "uvk_",
  recordSchema: ScanRecordSchema,
  summary: "scores how visible a site is to AI search engines and assistants, with the fixes",
  failedRecordFields: () => ({ offSite: null }),
  // A scan that asks for the rendered view is not answered by a record without one.
  servesCached: (record, target) => !target.render || record.render !== undefined,
  comparesSites: true,
  run: async (target, { config, now, signal, onProgress }) => {
    const { record, failure } = await scanSite(target, { config, now, signal, onProgress });
    return { record, failure };
  },
};

/** The Schema Markup Generator: scans the page the URL names (see lib/schema/). */
export const schemaService: ServiceDef<SchemaScanRecord> = {
  name: "schema",
  words: SERVICE_WORDS.schema,
  title: SERVICE_WORDS.schema.title,
  rescanTarget: (record) => record.url ?? record.domain,
  keyPrefix: "usk_",
  recordSchema: SchemaScanRecordSchema,
  run: async (target, { config, now, signal, onProgress }) => {
    onProgress?.("fetching the page and reading its structured data");
    const { record, failure } = await scanPage(target, { config, now, signal, onProgress });
    onProgress?.("validating and writing the JSON-LD");
    return { record, failure };
  },
  servesCached: (record, target) =>
    record.url === (target.pageUrl ?? target.url) &&
    (!target.render || record.result?.rendered !== undefined),
  summary: "finds a page's structured data, validates it and generates JSON-LD to paste",
  failedRecordFields: (job) => ({ url: job.pageUrl ?? job.url }),
  validatesCode: true,
};

/** Every service this codebase can run, by name (a shared queue may carry either's jobs). */
export const SERVICES: Record<string, ServiceDef> = {
  visibility: visibilityService as ServiceDef,
  schema: schemaService as ServiceDef,
};

/** The service a config selects. */
export function serviceFor(config: Pick<Config, "service">): ServiceDef {
  const s = SERVICES[config.service];
  if (!s) throw new Error(`The ${config.service} service is not available in this build`);
  return s;
}
