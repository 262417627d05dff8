import { z } from 'zod';
import type { UnavailabilityReason } from '#domain/catalog/availability.ts';
import type { OfferingPanel } from '#domain/catalog/offering-selection.ts';
import type { PriceLabel } from '#domain/catalog/price-label.ts';
import type { ProductFeature } from '#domain/catalog/product-features.ts';
import type { ProductOffering } from '#domain/catalog/service.ts';
import type { ItemListEntry } from '#web/components/product-item-list.tsx';
import { errorDetail } from './api-error-detail.ts';

/** What the product side sheet shows: the JSON:API catalog item with its includes resolved. */
export type SheetItem = {
  id: number;
  name: string;
  description: string;
  productType: string;
  isbn: string | null;
  /** The cover's version (domain/catalog/cover-version.ts). */
  coverVersion: string;
  canonicalUrl: string;
  redemptionUrl: string | null;
  priceLabel: PriceLabel;
  offeringPanel: OfferingPanel;
  defaultOfferingId: number | null;
  product: {
    subtitle: string | null;
    authors: string;
    publisher: string;
    edition: string | null;
    language: string;
    numPages: number | null;
    publishYear: number | null;
    isbns: { type: string; value: string }[];
    pcard10: string | null;
    isCodeless: boolean;
    isUrlAccessCode: boolean;
    typeFeatures: Record<string, ProductFeature[]>;
  };
  offerings: ProductOffering[];
  userAvailability: { isOwned: boolean; inCart: boolean; showFree: boolean };
  channelAvailability: {
    availabilityStatus: string;
    unavailableReason: UnavailabilityReason | null;
  };
  collectionItems: ItemListEntry[];
  bookFiles: { id: number; title: string; extension: string; type: string }[];
};

const resourceId = z.object({ type: z.string(), id: z.string() });
const resource = resourceId.extend({ attributes: z.record(z.string(), z.unknown()) });
const document = z.object({
  data: resource.extend({
    relationships: z.object({
      product: z.object({ data: resourceId }),
      offerings: z.object({ data: z.array(resourceId) }),
      userAvailability: z.object({ data: resourceId }),
      channelAvailability: z.object({ data: resourceId }),
      collectionItems: z.object({ data: z.array(resourceId) }),
      bookFiles: z.object({ data: z.array(resourceId) }),
    }),
  }),
  included: z.array(resource),
});

const feature = z.object({
  code: z.string().nullable(),
  name: z.string(),
  detail: z.string().nullable(),
});
const itemAttributes = z.object({
  name: z.string(),
  description: z.string(),
  productType: z.string(),
  isbn: z.string().nullable(),
  mediumImage: z.string(),
  coverVersion: z.string(),
  canonicalUrl: z.string(),
  redemptionUrl: z.string().nullable(),
  priceLabel: z.custom<PriceLabel>((v) => typeof v === 'object' && v !== null && 'kind' in v),
  offeringPanel: z.object({
    visible: z.boolean(),
    labelKey: z.enum(['offering.duration', 'offering.purchaseOptions']),
    disabled: z.boolean(),
  }),
  defaultOfferingId: z.number().nullable(),
});
const productAttributes = z.object({
  subtitle: z.string().nullable(),
  authors: z.string(),
  publisher: z.string(),
  edition: z.string().nullable(),
  language: z.string(),
  numPages: z.number().nullable(),
  publishYear: z.number().nullable(),
  isbns: z.array(z.object({ type: z.string(), value: z.string() })),
  pcard10: z.string().nullable(),
  isCodeless: z.boolean(),
  isUrlAccessCode: z.boolean(),
  typeFeatures: z.record(z.string(), z.array(feature)),
});
const offeringAttributes = z.object({
  type: z.string(),
  price: z.number().int(),
  comboPrice: z.number().int().nullable(),
  currencyCode: z.string(),
  description: z.string(),
  durationDays: z.number().nullable(),
  isRental: z.boolean(),
});
const userAvailabilityAttributes = z.object({
  isOwned: z.boolean(),
  inCart: z.boolean(),
  showFree: z.boolean(),
});
const channelAvailabilityAttributes = z.object({
  availabilityStatus: z.string(),
  unavailableReason: z
    .enum(['removed', 'default', 'disabled', 'territory', 'market', 'offering'])
    .nullable(),
});
const collectionItemAttributes = z.object({
  productType: z.string(),
  productId: z.number(),
  title: z.string(),
  language: z.string(),
  path: z.string(),
  coverVersion: z.string(),
});
const bookFileAttributes = z.object({
  title: z.string(),
  extension: z.string(),
  type: z.string(),
});

/** Resolves a GET /api/catalog-items/{id} document; throws when it is not one. */
export function parseCatalogItemDocument(json: unknown): SheetItem {
  const doc = document.parse(json);
  const byKey = new Map(doc.included.map((r) => [`${r.type}\u0000${r.id}`, r.attributes]));
  const find = <T>(schema: z.ZodType<T>, ref: { type: string; id: string }): T =>
    schema.parse(byKey.get(`${ref.type}\u0000${ref.id}`));
  const rel = doc.data.relationships;
  const attributes = itemAttributes.parse(doc.data.attributes);
  return {
    id: Number(doc.data.id),
    name: attributes.name,
    description: attributes.description,
    productType: attributes.productType,
    isbn: attributes.isbn,
    coverVersion: attributes.coverVersion,
    canonicalUrl: attributes.canonicalUrl,
    redemptionUrl: attributes.redemptionUrl,
    priceLabel: attributes.priceLabel,
    offeringPanel: attributes.offeringPanel,
    defaultOfferingId: attributes.defaultOfferingId,
    product: find(productAttributes, rel.product.data),
    offerings: rel.offerings.data.map((ref) => {
      const o = find(offeringAttributes, ref);
      return {
        id: Number(ref.id),
        productType: attributes.productType,
        type: o.type,
        priceCents: o.price,
        comboPriceCents: o.comboPrice,
        currencyCode: o.currencyCode,
        description: o.description,
        durationDays: o.durationDays,
        isRental: o.isRental,
      };
    }),
    userAvailability: find(userAvailabilityAttributes, rel.userAvailability.data),
    channelAvailability: find(channelAvailabilityAttributes, rel.channelAvailability.data),
    collectionItems: rel.collectionItems.data.map((ref) => {
      const item = find(collectionItemAttributes, ref);
      return {
        id: item.productId,
        productType: item.productType,
        title: item.title,
        languageCode: item.language,
        path: item.path,
        cover: item.coverVersion,
      };
    }),
    bookFiles: rel.bookFiles.data.map((ref) => ({
      id: Number(ref.id),
      ...find(bookFileAttributes, ref),
    })),
  };
}

export type CatalogItemResult =
  | { ok: true; item: SheetItem }
  | { ok: false; message: string | null };

/**
 * Loads a catalog item for the side sheet. A failure carries the server's translated detail
 * when there is one (spec 2 §8 generic fetch failure); otherwise the caller shows its own text.
 */
export async function fetchCatalogItem(
  id: number,
  signal: AbortSignal,
  options: { ecommerceCourseId?: number | null } = {},
): Promise<CatalogItemResult> {
  const query = options.ecommerceCourseId
    ? `?ecommerce_course_id=${encodeURIComponent(options.ecommerceCourseId)}`
    : '';
  const response = await fetch(`/api/catalog-items/${id}${query}`, {
    headers: { Accept: 'application/vnd.api+json' },
    credentials: 'same-origin',
    signal,
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, message: errorDetail(body) };
  try {
    return { ok: true, item: parseCatalogItemDocument(body) };
  } catch {
    return { ok: false, message: null };
  }
}
