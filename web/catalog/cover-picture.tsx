import type { ImgHTMLAttributes } from 'react';
import { type CoverDisplayWidth, coverImage } from '#domain/catalog/cover-image.ts';

/**
 * A product's cover `width` CSS pixels wide and 1.5 times as high (the room is kept, so nothing
 * shifts when it loads): AVIF, WebP or JPEG, whichever the browser takes first
 * (domain/catalog/cover-image.ts). `version` is the product's cover version.
 */
export function CoverPicture({
  productId,
  version,
  width,
  alt,
  ...img
}: {
  productId: number;
  version: string | null;
  width: CoverDisplayWidth;
  alt: string;
} & Pick<ImgHTMLAttributes<HTMLImageElement>, 'loading' | 'fetchPriority'>) {
  const { sources, src, srcSet } = coverImage(productId, width, version);
  return (
    <picture className="cover-picture">
      {sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} />
      ))}
      <img src={src} srcSet={srcSet} alt={alt} width={width} height={width * 1.5} {...img} />
    </picture>
  );
}
