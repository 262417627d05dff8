// Product covers as the browser loads them (issues 13 and 15). A generated cover is an SVG with
// its title set in type; as an <img>, each one is a document of its own that the phone's main
// thread parses, lays out and paints, 16 to 95 ms a cover at full speed. The pages therefore
// show raster covers drawn on the server (web/utils/cover-raster.server.ts), at the size they are
// shown and at twice it for dense screens, in a <picture>: AVIF first for a publisher's cover (a
// photograph, where AVIF is about a quarter smaller than WebP), WebP, and JPEG for browsers that
// take neither. A generated cover is flat colour and type, where AVIF saves nothing and costs
// two to three times WebP's drawing time, so it has no AVIF source.
//
// Each address carries the cover's version (domain/catalog/cover-version.ts): a new publisher
// image or a renamed product is a new address, so an address can be cached for a year.

/** A generated cover's SVG width in its own units (its height is 1.5 times it). */
export const COVER_SVG_WIDTH = 400;

/** The widths, in CSS pixels, at which pages show a cover. */
export const COVER_DISPLAY_WIDTHS = [80, 96, 160, 300] as const;
export type CoverDisplayWidth = (typeof COVER_DISPLAY_WIDTHS)[number];

/** The image widths, in pixels, the server draws: each display width at 1x and 2x. */
export const COVER_IMAGE_WIDTHS: readonly number[] = COVER_DISPLAY_WIDTHS.flatMap((width) => [
  width,
  width * 2,
]);

export const COVER_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type CoverFormat = (typeof COVER_FORMATS)[number];

export const COVER_MEDIA_TYPES: Record<CoverFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
};

/** A cover version names a publisher's image when it starts with 'p' (cover-version.ts). */
export function isPublisherCover(version: string | null): boolean {
  return version?.startsWith('p') === true;
}

/**
 * The address of a product's cover drawn `pixels` wide in `format`. With the cover's `version`
 * the address is cacheable for a year; without it, for a day.
 */
export function coverUrl(
  productId: number,
  pixels: number,
  version: string | null,
  format: CoverFormat = 'webp',
): string {
  const address = `/covers/${productId}-${pixels}.${format}`;
  return version ? `${address}?v=${encodeURIComponent(version)}` : address;
}

export type CoverPictureSources = {
  /** The <source> elements of a <picture>, best format first. */
  sources: { type: string; srcSet: string }[];
  /** The <img>'s JPEG, for browsers that take none of the sources. */
  src: string;
  srcSet: string;
};

/** What a <picture> needs to show a product's cover `width` CSS pixels wide. */
export function coverImage(
  productId: number,
  width: CoverDisplayWidth,
  version: string | null,
): CoverPictureSources {
  const srcSet = (format: CoverFormat) =>
    `${coverUrl(productId, width, version, format)} 1x, ${coverUrl(productId, width * 2, version, format)} 2x`;
  const formats: CoverFormat[] = isPublisherCover(version) ? ['avif', 'webp'] : ['webp'];
  return {
    sources: formats.map((format) => ({ type: COVER_MEDIA_TYPES[format], srcSet: srcSet(format) })),
    src: coverUrl(productId, width, version, 'jpg'),
    srcSet: srcSet('jpg'),
  };
}
