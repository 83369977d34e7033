/** The scripts, JSON-LD and framework-marker share of PageFacts, fed by the SAX handler. */
import { isJsonLdType, parseJsonLd } from "./json_ld.ts";
import {
  attributeMarker,
  isExecutableScriptType,
  PAGE_CAPS,
  SCRIPT_ID_MARKERS,
  SCRIPT_MARKER_TAIL,
  SCRIPT_TEXT_MARKERS,
} from "./page_rules.ts";
import { TextBuffer, utf8Length } from "./text_tools.ts";
import type { JsonLdBlock } from "./types.ts";

type Attribs = Record<string, string>;

/** What the text of the open script is for. */
type ScriptUse = "jsonld" | "code" | "ignore";

/**
 * Counts scripts, measures inline code, collects JSON-LD and notes framework markers. Scripts
 * are raw text and cannot nest, so one "current script" suffices.
 */
export class ScriptFacts {
  private count = 0;
  private external = 0;
  private otherSites = 0;
  private inlineBytes = 0;
  private readonly jsonLd: JsonLdBlock[] = [];
  private readonly markers = new Set<string>();
  private use: ScriptUse = "ignore";
  private json: TextBuffer | null = null;
  /** End of the previous chunk of the current script, so markers split across chunks match. */
  private tail = "";

  /**
   * `ownSite(src)`: whether a script's `src` is on the page's own site (relative, or the same
   * registrable domain); an unresolvable one counts as the page's own.
   */
  constructor(private readonly ownSite: (src: string) => boolean = () => true) {}

  /** A `<script>` opens. */
  open(attribs: Attribs): void {
    this.count++;
    this.use = "ignore";
    this.tail = "";
    const id = attribs.id;
    if (id !== undefined && SCRIPT_ID_MARKERS.has(id)) this.addMarker(id);
    // The text of a script with src never runs, whatever it holds.
    if (attribs.src !== undefined) {
      this.external++;
      if (!this.ownSite(attribs.src)) this.otherSites++;
    } else if (isJsonLdType(attribs.type)) {
      if (this.jsonLd.length < PAGE_CAPS.jsonLd) {
        this.use = "jsonld";
        this.json = new TextBuffer(Infinity);
      }
    } else if (isExecutableScriptType(attribs.type)) {
      this.use = "code";
    }
  }

  /** Text of the open script. */
  text(data: string): void {
    if (this.use === "jsonld") {
      this.json!.add(data);
    } else if (this.use === "code") {
      this.inlineBytes += utf8Length(data);
      if (this.markers.size < PAGE_CAPS.markers) {
        const text = this.tail + data;
        for (const [needle, marker] of SCRIPT_TEXT_MARKERS) {
          if (text.includes(needle)) this.addMarker(marker);
        }
        this.tail = text.slice(-SCRIPT_MARKER_TAIL);
      }
    }
  }

  /** The open script closes. */
  close(): void {
    if (this.use === "jsonld") this.jsonLd.push(parseJsonLd(this.json!.raw()));
    this.use = "ignore";
    this.json = null;
  }

  /** Framework markers in any element's attribute names. */
  scanAttributes(attribs: Attribs): void {
    if (this.markers.size >= PAGE_CAPS.markers) return;
    for (const key in attribs) {
      const first = key.charCodeAt(0);
      // Markers all start with d(ata-), n(g-) or q(:); skip the lookups for other names.
      if (first === 100 || first === 110 || first === 113) {
        const marker = attributeMarker(key);
        if (marker !== null) this.addMarker(marker);
      }
    }
  }

  /** Adds a framework marker found elsewhere (e.g. an element name). */
  addMarker(marker: string): void {
    if (this.markers.size < PAGE_CAPS.markers) this.markers.add(marker);
  }

  /** The collected fields. */
  fields(): {
    scripts: { count: number; external: number; otherSites: number; inlineBytes: number };
    jsonLd: JsonLdBlock[];
    markers: string[];
  } {
    return {
      scripts: {
        count: this.count,
        external: this.external,
        otherSites: this.otherSites,
        inlineBytes: this.inlineBytes,
      },
      jsonLd: this.jsonLd,
      markers: [...this.markers],
    };
  }
}
