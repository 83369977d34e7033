/**
 * One SAX pass over a page's HTML that fills {@link PageFacts}.
 *
 * A SAX pass (htmlparser2's Parser) instead of a DOM: no tree is built, memory holds only the
 * facts kept, and on the 2 MB page of tests/bench/parse_bench.ts all the extraction below costs
 * less than linkedom's parse alone. State lives in an explicit stack of frames, never in
 * recursion, so nesting depth cannot overflow the call stack; every list is capped (PAGE_CAPS).
 */
import type { Handler } from "htmlparser2";
import { HeadFacts } from "./head_facts.ts";
import { LinearParser } from "./linear_parser.ts";
import { LinkFacts } from "./link_facts.ts";
import {
  MOUNT_IDS,
  PAGE_CAPS,
  TAG,
  TAG_HEAD,
  TAG_HIDDEN,
  TAG_INLINE,
  TAG_SEMANTIC,
  tagInfo,
} from "./page_rules.ts";
import { ScriptFacts } from "./script_facts.ts";
import { ARIA_LANDMARKS, CTX, type Frame, INK, noSemantics, ROLE } from "./page_frames.ts";
import { MarkupCounts } from "./markup_counts.ts";
import {
  collapseWhitespace,
  isQuestionHeading,
  TextBuffer,
  TextStats,
  truncate,
} from "./text_tools.ts";
import type { PageFacts } from "./types.ts";
import { UrlResolver } from "./url_tools.ts";
import { BylineReader } from "./visible_bylines.ts";

export { PAGE_CAPS as PAGE_FACTS_LIMITS } from "./page_rules.ts";

/**
 * Extracts every {@link PageFacts} field from `html` in a single SAX pass. `baseUrl` is the
 * page's final URL: relative URLs resolve against it (or `<base href>`), and links are internal
 * when they share its registrable domain. Never throws on malformed HTML or URLs.
 */
export function extractPageFacts(html: string, baseUrl: string): PageFacts {
  const collector = new FactCollector(baseUrl);
  const parser = new LinearParser(collector, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  parser.end(html);
  return collector.finish();
}

type Attribs = Record<string, string>;

/** The SAX handler: accumulates facts as events arrive. */
class FactCollector implements Partial<Handler> {
  private readonly urls: UrlResolver;
  private readonly head: HeadFacts;
  private readonly linkFacts: LinkFacts;
  private readonly scripts: ScriptFacts;
  private readonly frames: Frame[] = [];
  private svg = 0;
  private template = 0;
  private noscript = 0;
  private hidden = 0;
  private headFrame: Frame | null = null;
  private headOpen = false;
  private baseSeen = false;
  /** Buffers collecting rendered text right now (headings, anchors), innermost last. */
  private readonly activeBufs: TextBuffer[] = [];
  /** Anchors open now, innermost last: an `<img>` inside lends its alt as link text. */
  private readonly anchorAlts: (string | null)[] = [];
  /** Mount nodes still empty; any element or text inside them empties this list. */
  private readonly openMounts: Frame[] = [];
  private readonly visibleText = new TextStats(PAGE_CAPS.textSample);
  private readonly noscriptText = new TextStats();
  private readonly markup = new MarkupCounts();
  /** The page's visible bylines and dates (visible_bylines.ts). */
  private readonly bylines: BylineReader;

  private lang: string | null = null;
  private title: string | null = null;
  private titleCount = 0;
  private readonly headings: { level: number; text: string }[] = [];
  private readonly semantic: PageFacts["semantic"] = noSemantics();
  private substantialParagraphs = 0;
  private lists = 0;
  private tables = 0;
  private questionHeadings = 0;
  private detailsCount = 0;
  private definitionLists = 0;
  private emptyMountNode = false;
  private readonly times: string[] = [];
  private hasBody = false;
  private elementCount = 0;
  private maxDepth = 0;

  constructor(baseUrl: string) {
    this.urls = new UrlResolver(baseUrl);
    this.head = new HeadFacts(this.urls);
    this.linkFacts = new LinkFacts(this.urls);
    this.bylines = new BylineReader((href) => this.urls.http(href, true)?.href ?? null);
    this.scripts = new ScriptFacts((src) => {
      const url = this.urls.http(src, true);
      return url === null || this.urls.isInternal(url.hostname);
    });
  }

  onopentag(name: string, attribs: Attribs): void {
    this.elementCount++;
    if (this.openMounts.length > 0) this.fillMounts();
    const frames = this.frames;
    const parent = frames.length > 0 ? frames[frames.length - 1] : null;
    const info = tagInfo(name);
    const frame: Frame = {
      info,
      ctx: 0,
      role: ROLE.NONE,
      level: 0,
      buf: null,
      stream: null,
      startWords: 0,
      anchor: null,
      emptyMount: false,
    };
    frames.push(frame);
    if (frames.length > this.maxDepth) this.maxDepth = frames.length;
    this.head.onOpen(frame, name, attribs);
    if (!(info & TAG_INLINE)) this.boundary();
    this.bylines.open(name, attribs);
    const code = info & 0xff;

    if (this.svg > 0 || this.template > 0) {
      // Foreign or inert content: no facts, only the nesting that ends it.
      if (code === TAG.svg) this.raise(frame, CTX.SVG);
      else if (code === TAG.template) this.raise(frame, CTX.TEMPLATE);
      return;
    }
    if (this.headOpen && parent === this.headFrame && !(info & TAG_HEAD)) this.headOpen = false;
    this.onAnyElement(frame, attribs);

    if (info & TAG_HIDDEN) this.raise(frame, CTX.HIDDEN);
    if (info & TAG_SEMANTIC) this.semantic[name as keyof PageFacts["semantic"]]++;
    // ARIA landmark roles count as the element they stand for (<div role="main"> is a main).
    const landmark = attribs.role === undefined
      ? undefined
      : ARIA_LANDMARKS[attribs.role.trim().toLowerCase().split(/\s+/)[0]];
    if (landmark !== undefined && landmark !== name) this.semantic[landmark]++;
    if (code === TAG.other) return;
    switch (code) {
      case TAG.html:
        if (this.lang === null) this.lang = attribs.lang?.trim() || null;
        break;
      case TAG.head:
        if (this.headFrame === null) {
          this.headFrame = frame;
          this.headOpen = true;
          frame.role = ROLE.HEAD;
        }
        break;
      case TAG.body:
        this.hasBody = true;
        this.headOpen = false;
        break;
      case TAG.title:
        if (++this.titleCount === 1) this.collect(frame, ROLE.TITLE, 10_000, false);
        break;
      case TAG.meta:
        this.head.onMeta(attribs);
        break;
      case TAG.link:
        this.head.onLink(attribs);
        break;
      case TAG.base:
        // Only the first <base href> counts, even when its URL is unusable (as in browsers).
        if (!this.baseSeen && attribs.href !== undefined) {
          this.baseSeen = true;
          this.urls.setBase(attribs.href.trim());
        }
        break;
      case TAG.script:
        frame.role = ROLE.SCRIPT;
        this.scripts.open(attribs);
        break;
      case TAG.noscript:
        this.raise(frame, CTX.NOSCRIPT);
        break;
      case TAG.template:
        this.raise(frame, CTX.TEMPLATE);
        break;
      case TAG.svg:
        this.raise(frame, CTX.SVG);
        break;
      case TAG.heading:
        frame.level = name.charCodeAt(1) - 48;
        this.collect(frame, ROLE.HEADING, 1000, true);
        break;
      case TAG.p:
        // Words inside = growth of the page's word count while it is open: no second count.
        frame.role = ROLE.PARAGRAPH;
        frame.stream = this.noscript > 0 ? this.noscriptText : this.visibleText;
        frame.startWords = frame.stream.words;
        break;
      case TAG.a:
        this.onAnchor(frame, attribs);
        break;
      case TAG.img:
        this.onImage(attribs);
        break;
      case TAG.list:
        this.lists++;
        break;
      case TAG.dl:
        this.definitionLists++;
        break;
      case TAG.table:
        this.tables++;
        break;
      case TAG.details:
        this.detailsCount++;
        break;
      case TAG.astroIsland:
        this.scripts.addMarker("astro-island");
        break;
      case TAG.time: {
        this.semantic.time++;
        const datetime = attribs.datetime?.trim();
        if (datetime && this.times.length < PAGE_CAPS.times) this.times.push(datetime);
        break;
      }
    }
  }

  ontext(data: string): void {
    if (this.svg > 0 || this.template > 0) return;
    if (this.hidden > 0) {
      this.onHiddenText(data);
      return;
    }
    if (this.openMounts.length > 0 && INK.test(data)) this.fillMounts();
    const bufs = this.activeBufs;
    for (let i = 0; i < bufs.length; i++) bufs[i].add(data);
    if (this.noscript > 0) {
      this.noscriptText.add(data);
      return;
    }
    if (this.headOpen) {
      // Blank text stays in the head; other text directly in it ends the head, as in browsers.
      if (!INK.test(data) || this.frames[this.frames.length - 1] !== this.headFrame) return;
      this.headOpen = false;
    }
    this.visibleText.add(data);
    this.bylines.text(data);
  }

  onclosetag(): void {
    const frame = this.frames.pop();
    if (frame === undefined) return;
    this.bylines.close();
    this.head.onClose(frame);
    if (frame.ctx !== 0) {
      if (frame.ctx & CTX.SVG) this.svg--;
      if (frame.ctx & CTX.TEMPLATE) this.template--;
      if (frame.ctx & CTX.NOSCRIPT) this.noscript--;
      if (frame.ctx & CTX.HIDDEN) this.hidden--;
    }
    if (frame.role !== ROLE.NONE) this.finishRole(frame);
    if (frame.emptyMount) {
      // Still empty at its close: nothing was opened after it, so it is the last entry.
      this.openMounts.pop();
      this.emptyMountNode = true;
    }
    if (!(frame.info & TAG_INLINE)) this.boundary();
  }

  /** Assembles the result once the parser has closed every element. */
  finish(): PageFacts {
    const visible = this.visibleText;
    const { scripts, jsonLd, markers } = this.scripts.fields();
    return {
      lang: this.lang,
      title: this.title,
      titleCount: this.titleCount,
      ...this.head.fields(),
      ...this.linkFacts.fields(),
      headings: this.headings,
      jsonLd,
      ...this.markup.fields(),
      semantic: this.semantic,
      text: {
        words: visible.words,
        chars: visible.chars,
        sample: visible.sample(),
      },
      noscriptWords: this.noscriptText.words,
      substantialParagraphs: this.substantialParagraphs,
      lists: this.lists,
      tables: this.tables,
      questionHeadings: this.questionHeadings,
      detailsCount: this.detailsCount,
      definitionLists: this.definitionLists,
      scripts,
      appShell: { emptyMountNode: this.emptyMountNode, markers },
      times: this.times,
      bylines: this.bylines.fields(),
      hasBody: this.hasBody,
      elementCount: this.elementCount,
      maxDepth: this.maxDepth,
    };
  }

  private raise(frame: Frame, bit: number): void {
    frame.ctx |= bit;
    if (bit === CTX.SVG) this.svg++;
    else if (bit === CTX.TEMPLATE) this.template++;
    else if (bit === CTX.NOSCRIPT) this.noscript++;
    else this.hidden++;
  }

  /** Starts collecting an element's text; `rendered` buffers take text from the visible flow. */
  private collect(frame: Frame, role: number, max: number, rendered: boolean): void {
    frame.role = role;
    frame.buf = new TextBuffer(max);
    if (rendered) this.activeBufs.push(frame.buf);
  }

  /** An element boundary separates words, in the page text and in every open collector. */
  private boundary(): void {
    this.bylines.boundary();
    this.visibleText.breakWord();
    this.noscriptText.breakWord();
    const bufs = this.activeBufs;
    for (let i = 0; i < bufs.length; i++) bufs[i].add(" ");
  }

  /** Mount nodes that received content are not empty: forget them. */
  private fillMounts(): void {
    for (const mount of this.openMounts) mount.emptyMount = false;
    this.openMounts.length = 0;
  }

  /** Attributes any element may carry: ids, microdata, RDFa, framework markers. */
  private onAnyElement(frame: Frame, attribs: Attribs): void {
    this.scripts.scanAttributes(attribs);
    const id = attribs.id;
    if (id !== undefined && MOUNT_IDS.has(id.trim())) {
      frame.emptyMount = true;
      this.openMounts.push(frame);
    }
    this.markup.scanAttributes(attribs);
  }

  /** Text inside script/style/title/iframe: only the element itself may want it. */
  private onHiddenText(data: string): void {
    // Hidden elements are raw text in HTML, so the innermost open element is the one.
    const frame = this.frames[this.frames.length - 1];
    if (frame.role === ROLE.TITLE) frame.buf!.add(data);
    else if (frame.role === ROLE.SCRIPT) this.scripts.text(data);
  }

  private onAnchor(frame: Frame, attribs: Attribs): void {
    const raw = attribs.href;
    if (raw === undefined) return;
    if (!this.linkFacts.wantsAnchors()) return;
    this.collect(frame, ROLE.ANCHOR, 3 * PAGE_CAPS.linkText, true);
    const label = attribs["aria-label"] ?? attribs.title ?? null;
    frame.anchor = { href: raw, rel: attribs.rel?.trim().toLowerCase() ?? "", label };
    this.anchorAlts.push(null);
  }

  private onImage(attribs: Attribs): void {
    const alt = attribs.alt === undefined ? null : collapseWhitespace(attribs.alt);
    const anchors = this.anchorAlts;
    if (anchors.length > 0 && anchors[anchors.length - 1] === null && alt) {
      anchors[anchors.length - 1] = alt;
    }
    // Images in noscript are lazy-load fallbacks (counted already) or tracking pixels.
    if (this.noscript === 0) this.linkFacts.addImage(attribs);
  }

  private finishRole(frame: Frame): void {
    const buf = frame.buf;
    switch (frame.role) {
      case ROLE.HEAD:
        this.headOpen = false;
        return;
      case ROLE.SCRIPT:
        this.scripts.close();
        return;
      case ROLE.TITLE:
        this.title = buf!.text();
        return;
      case ROLE.PARAGRAPH:
        if (frame.stream!.words - frame.startWords >= 20) this.substantialParagraphs++;
        return;
    }
    // Rendered collectors close in the order they opened (elements nest), so it is the last.
    this.activeBufs.pop();
    if (frame.role === ROLE.HEADING) {
      const text = buf!.text();
      if (isQuestionHeading(text)) this.questionHeadings++;
      if (this.headings.length < PAGE_CAPS.headings) {
        this.headings.push({ level: frame.level, text: truncate(text, PAGE_CAPS.headingText) });
      }
    } else if (frame.role === ROLE.ANCHOR) {
      const alt = this.anchorAlts.pop() ?? null;
      const { href, rel, label } = frame.anchor!;
      this.linkFacts.addAnchor({ href, rel, text: buf!.raw(), fallback: label ?? alt });
    }
  }
}
