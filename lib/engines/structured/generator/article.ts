/**
 * The Article node the generator makes from what the page states (headline, dates, authors), and
 * the authors of the page's own article as people: one Person per name, "By " stripped.
 */
import type { Article, Person } from "schema-dts";
import { slug } from "../graph_tools.ts";
import type { Facts, Generated } from "../record.ts";
import { asList, isObject, type JsonObject, type JsonValue } from "../terms.ts";
import { cleanAuthorName, splitAuthors } from "../bylines.ts";
import { type Obj, toJson } from "./values.ts";

/**
 * The Article's values from the page's facts; each author the byline names becomes a Person node
 * of its own (pushed to `graph`), unless the page's own article markup states its authors.
 */
export function articleNode(
  facts: Facts,
  siteId: string | null,
  imageId: string | null,
  home: string,
  graph: JsonObject[],
  nodes: Generated["nodes"],
  hasAuthor = false,
): Obj<Article> | null {
  const a = facts.article;
  if (!a) return { "@type": "Article", publisher: siteId ? { "@id": siteId } : undefined };
  const authors = a.authors ??
    (a.author ? splitAuthors(a.author).map((name) => ({ name, url: a.authorUrl })) : []);
  const ids: string[] = [];
  if (!hasAuthor) {
    for (const author of authors) {
      const id = `${home}#/schema/person/${slug(author.name)}`;
      if (ids.includes(id)) continue;
      ids.push(id);
      const person: Obj<Person> = {
        "@type": "Person",
        "@id": id,
        name: author.name,
        url: author.url ?? undefined,
      };
      graph.push(toJson(person));
      nodes.push({ id, type: "Person", origin: "new" });
    }
  }
  return {
    "@type": "Article",
    headline: a.headline ?? undefined,
    datePublished: a.datePublished ?? undefined,
    dateModified: a.dateModified ?? undefined,
    author: ids.length ? ids.map((id) => ({ "@id": id })) : undefined,
    publisher: siteId ? { "@id": siteId } : undefined,
    image: imageId ? { "@id": imageId } : undefined,
    inLanguage: facts.lang ?? undefined,
  };
}

/**
 * The `author` of the page's own article as people: a text naming several people becomes one
 * Person each, a Person's name loses its "By ", duplicates go. References stay as they are.
 */
export function authorsAsPeople(value: JsonValue | undefined): JsonValue | undefined {
  if (value === undefined) return undefined;
  const out: JsonValue[] = [];
  const seen = new Set<string>();
  const push = (v: JsonValue, key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push(v);
  };
  for (const v of asList(value)) {
    if (typeof v === "string") {
      for (const name of splitAuthors(v)) {
        if (/^https?:\/\//i.test(name)) continue;
        push({ "@type": "Person", name }, `n:${name.toLowerCase()}`);
      }
    } else if (isObject(v) && typeof v.name === "string") {
      const name = cleanAuthorName(v.name);
      if (name) push({ ...v, name }, `n:${name.toLowerCase()}`);
    } else push(v, `j:${JSON.stringify(v)}`);
  }
  return out.length === 0 ? undefined : out.length === 1 ? out[0] : out;
}
