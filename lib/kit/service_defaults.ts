/**
 * The services this program can run, by name, with what a local deployment of each defaults to:
 * the one list of service names (SERVICE=, the config's type, the ports, the KV files and the
 * sisters all read it; lib/app/server.ts registers one ServiceDef per name, and a test holds the two
 * equal). Deno Deploy ignores the port and the KV file.
 */

/** Per service: its default port and local KV file, and its sister (the other service). */
export const SERVICE_DEFAULTS = {
  visibility: { port: 8000, kvPath: "./data/kv.sqlite3", sister: "schema" },
  schema: { port: 8001, kvPath: "./data/schema-kv.sqlite3", sister: "visibility" },
} as const;

/** A service's name, as `SERVICE=` takes it. */
export type ServiceName = keyof typeof SERVICE_DEFAULTS;

/** Every service name, the default (`visibility`) first. */
export const SERVICE_NAMES = Object.keys(SERVICE_DEFAULTS) as [ServiceName, ...ServiceName[]];
