// Product covers as the browser loads them (issue 13). A generated cover is an SVG with its
// title set in type; as an <img>, each one is a document of its own that the phone's main
// thread parses, lays out and paints, 16 to 95 ms a cover at full speed. The pages therefore
// show raster covers (WebP, drawn on the server from the same SVG, web/utils/cover-raster.server.ts),
// at the size they are shown and at twice it for dense screens.

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

/** The address of a product's cover drawn `pixels` wide. */
export function coverUrl(productId: number, pixels: number): string {
  return `/covers/${productId}-${pixels}.webp`;
}

/** The src and srcSet of an <img> that shows a product's cover `width` CSS pixels wide. */
export function coverImage(
  productId: number,
  width: CoverDisplayWidth,
): { src: string; srcSet: string } {
  const src = coverUrl(productId, width);
  return { src, srcSet: `${src} 1x, ${coverUrl(productId, width * 2)} 2x` };
}
