/** The Product node (with its Offer) the generator makes from what the page states. */
import type { Offer, Product } from "schema-dts";
import type { Facts } from "../record.ts";
import type { Obj } from "./values.ts";

/** A Product with its Offer, or null when the page lacks a price and currency for it. */
export function productNode(
  facts: Facts,
  page: string,
  imageId: string | null,
): Obj<Product> | null {
  const p = facts.product;
  if (!p?.price || !p.currency) return null;
  const offer: Offer = {
    "@type": "Offer",
    price: p.price,
    priceCurrency: p.currency,
    availability: (p.availability ?? undefined) as Offer["availability"],
    url: page,
  };
  return {
    "@type": "Product",
    name: p.name ?? undefined,
    description: facts.description ?? undefined,
    image: imageId ? { "@id": imageId } : undefined,
    sku: p.sku ?? undefined,
    brand: p.brand ? { "@type": "Brand", name: p.brand } : undefined,
    offers: offer,
  };
}
