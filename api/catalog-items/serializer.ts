import type { Locale } from '#domain/accounts/language.ts';
import { coverUrl } from '#domain/catalog/cover-image.ts';
import { editionWording } from '#domain/catalog/edition.ts';
import type { CatalogItem } from '#domain/catalog/service.ts';
import { isMessageWording } from '#domain/shared/wording.ts';
import { isFreeToAdd } from '#domain/shelf/free-book-rule.ts';
import { translate } from '#i18n/translate.ts';

type ResourceId = { type: string; id: string };

/** The covers' sizes in the document: a 96-pixel thumbnail and the product page's 300, at 2x. */
const THUMBNAIL_PIXELS = 192;
const MEDIUM_PIXELS = 600;

const ref = (type: string, id: number | string): ResourceId => ({ type, id: String(id) });

/**
 * A catalog item as a JSON:API document: the catalog-item resource with its product,
 * offerings, user and channel availability, collection items and book files included
 * (spec 2 §7, the 'Catalog item' call). Prices are integer cents in USD.
 */
export function catalogItemDocument(
  item: CatalogItem,
  options: { origin: string; ecommerceCourseId: number | null; locale: Locale },
) {
  const id = String(item.id);
  // The edition as the request's language says it ('3rd Edition', '3e édition'), or as its
  // publisher wrote it; editionNumber gives the number itself (issue 13).
  const edition = editionWording(item);
  const editionLabel =
    edition === null
      ? null
      : isMessageWording(edition)
        ? translate(options.locale, edition.message, edition.values)
        : edition.text;
  const included = [
    {
      ...ref('product', item.id),
      attributes: {
        title: item.title,
        subtitle: item.subtitle,
        authors: item.authors,
        publisher: item.publisher,
        edition: editionLabel,
        editionNumber: item.editionNumber,
        language: item.languageCode,
        numPages: item.numPages,
        publishYear: item.publishYear,
        isbns: item.isbns,
        productFileType: item.fileType,
        isCodeless: item.isCodeless,
        isUrlAccessCode: item.isUrlAccessCode,
        pcard10: item.pcard10,
        typeFeatures: item.typeFeatures,
      },
    },
    ...item.offerings.map((offering) => ({
      ...ref('offering', offering.id),
      attributes: {
        type: offering.type,
        price: offering.priceCents,
        comboPrice: offering.comboPriceCents,
        currencyCode: offering.currencyCode,
        description: offering.description,
        durationDays: offering.durationDays,
        isRental: offering.isRental,
      },
    })),
    {
      ...ref('user-availability', item.id),
      attributes: {
        isOwned: item.userAvailability.isOwned,
        inCart: item.userAvailability.inCart,
        // spec 3 userAvailability.showFree: the one free-book rule, as the product page asks it.
        showFree: isFreeToAdd({ price: item.price, unavailable: item.unavailable }),
      },
    },
    {
      ...ref('channel-availability', item.id),
      attributes: {
        availabilityStatus: item.status,
        unavailableReason: item.unavailable,
      },
    },
    ...item.items.map((entry) => ({
      ...ref('collection-item', entry.id),
      attributes: {
        productType: entry.productType,
        productId: entry.id,
        title: entry.title,
        language: entry.languageCode,
        author: entry.authors,
        slug: entry.slug,
        path: entry.path,
        thumbnailImage: coverUrl(entry.id, THUMBNAIL_PIXELS, entry.cover),
        coverVersion: entry.cover,
      },
    })),
    ...item.bookFiles.map((file) => ({
      ...ref('book-file', file.id),
      attributes: { title: file.title, extension: file.extension, type: file.type },
    })),
  ];
  return {
    data: {
      type: 'catalog-item',
      id,
      attributes: {
        name: item.title,
        description: item.description,
        productType: item.productType,
        isbn: item.isbn,
        mediumImage: coverUrl(item.id, MEDIUM_PIXELS, item.cover),
        thumbnailImage: coverUrl(item.id, THUMBNAIL_PIXELS, item.cover),
        coverVersion: item.cover,
        redemptionUrl: item.redemptionUrl,
        canonicalUrl: new URL(item.path, options.origin).href,
        priceLabel: item.price,
        offeringPanel: item.offeringPanel,
        defaultOfferingId: item.defaultOfferingId,
      },
      relationships: {
        product: { data: ref('product', item.id) },
        offerings: { data: item.offerings.map((o) => ref('offering', o.id)) },
        userAvailability: { data: ref('user-availability', item.id) },
        channelAvailability: { data: ref('channel-availability', item.id) },
        collectionItems: { data: item.items.map((entry) => ref('collection-item', entry.id)) },
        bookFiles: { data: item.bookFiles.map((file) => ref('book-file', file.id)) },
      },
      links: { self: `/api/catalog-items/${id}` },
      meta: { ecommerceCourseId: options.ecommerceCourseId },
    },
    included,
  };
}
