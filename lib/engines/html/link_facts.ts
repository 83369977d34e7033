/** The links, images and trust-page share of PageFacts, fed by the page-facts SAX handler. */
import { PAGE_CAPS, TRUST_HINT, type TrustKind, trustKind } from "./page_rules.ts";
import { collapseWhitespace, truncate } from "./text_tools.ts";
import type { PageFacts, PageLink } from "./types.ts";
import type { HttpUrl, UrlResolver } from "./url_tools.ts";

type Attribs = Record<string, string>;
type TrustSlots = Record<TrustKind, string | null>;

/** The PageFacts fields {@link LinkFacts} fills. */
export type LinkFields = Pick<PageFacts, "links" | "images" | "trustLinks">;

/** What the handler gathered about one `<a href>` by its close. */
export interface AnchorSeen {
  /** The href attribute as written. */
  href: string;
  /** rel attribute, lowercased. */
  rel: string;
  /** Rendered text inside the anchor, not yet collapsed. */
  text: string;
  /** aria-label, title or first image alt: what an icon link says instead of text. */
  fallback: string | null;
}

/** Lazy-load attributes tried, in order, when `src` is missing or a placeholder. */
const IMAGE_SOURCES = ["src", "data-src", "data-lazy-src", "data-original", "srcset"];

/**
 * Accumulates links (deduplicated, capped), images (capped) and trust links. Trust links are
 * looked for in every anchor, also past the links cap, because they live in page footers.
 */
export class LinkFacts {
  private readonly links: PageLink[] = [];
  private readonly seen = new Set<string>();
  private readonly images: { src: string; alt: string | null }[] = [];
  /** First match on the page's own site, and elsewhere: own pages win at the end. */
  private readonly trustOwn: TrustSlots = { about: null, contact: null, privacy: null };
  private readonly trustOther: TrustSlots = { about: null, contact: null, privacy: null };

  /** `urls`: the page's resolver (base URL and same-site test). */
  constructor(private readonly urls: UrlResolver) {}

  /** Whether another anchor could still change anything (else its text need not be kept). */
  wantsAnchors(): boolean {
    const t = this.trustOwn;
    return this.links.length < PAGE_CAPS.links ||
      t.about === null || t.contact === null || t.privacy === null;
  }

  /** One `<a href>`, at its close. */
  addAnchor(anchor: AnchorSeen): void {
    const full = this.links.length >= PAGE_CAPS.links;
    // Past the cap only trust links matter: a cheap raw test spares most anchors the rest.
    if (
      full && !TRUST_HINT.test(anchor.href) && !TRUST_HINT.test(anchor.text) &&
      !TRUST_HINT.test(anchor.fallback ?? "")
    ) return;
    const text = truncate(
      collapseWhitespace(anchor.text) || collapseWhitespace(anchor.fallback ?? ""),
      PAGE_CAPS.linkText,
    );
    const url = this.urls.http(anchor.href, true);
    if (url === null) return;
    const internal = this.urls.isInternal(url.hostname);
    // A link that says what it is (rel="author", rel="me") counts even when the same address was
    // linked before without it (a byline's author link to the About page of the menu).
    const key = anchor.rel ? `${url.href} ${anchor.rel}` : url.href;
    if (!full && !this.seen.has(key)) {
      this.seen.add(key);
      this.links.push({ href: url.href, text, rel: anchor.rel, internal });
    }
    const kind = trustKind(url.pathname, text);
    if (kind !== null) {
      const slots = internal ? this.trustOwn : this.trustOther;
      slots[kind] ??= url.href;
    }
  }

  /** One `<img>` (the caller leaves out those that are lazy-load fallbacks or pixels). */
  addImage(attribs: Attribs): void {
    if (this.images.length >= PAGE_CAPS.images) return;
    const url = this.imageUrl(attribs);
    if (url === null) return;
    const alt = attribs.alt === undefined ? null : collapseWhitespace(attribs.alt);
    this.images.push({ src: url.href, alt });
  }

  /** The collected fields. */
  fields(): LinkFields {
    const own = this.trustOwn, other = this.trustOther;
    return {
      links: this.links,
      images: this.images,
      trustLinks: {
        about: own.about ?? other.about,
        contact: own.contact ?? other.contact,
        privacy: own.privacy ?? other.privacy,
      },
    };
  }

  private imageUrl(attribs: Attribs): HttpUrl | null {
    for (const key of IMAGE_SOURCES) {
      let value = attribs[key];
      if (value === undefined) continue;
      if (key === "srcset") value = value.trim().split(/[\s,]+/)[0] ?? "";
      const url = this.urls.http(value, false);
      if (url) return url;
    }
    return null;
  }
}
