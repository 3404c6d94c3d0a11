/** SPEC "Image" (collections, articles, products). */
export class ImageDto {
  /** Collections and articles: the owner's id (the image lives in the owner's row), also while there is no image. */
  id: string | null;
  src: string | null;
  preview_src: string | null;
  /** Accessibility text. */
  alt: string | null;
  /** Gallery order. */
  position: number;
  /** Intrinsic width in pixels; 0 when unknown. */
  width: number;
  /** Intrinsic height in pixels; 0 when unknown. */
  height: number;
}

/** The image columns an owner row holds (`image_src`, `image_alt`, `image_width`, `image_height`). */
export interface ImageColumns {
  imageSrc: string | null;
  imageAlt: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
}

/**
 * An owner's single image; without a `src` every nullable member is null (the image object itself is always there).
 * `id` is always the owner's id, since the image lives in the owner's row.
 */
export function mapImage(ownerId: string, row: ImageColumns): ImageDto & { id: string } {
  if (!row.imageSrc) return { id: ownerId, src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 };
  return {
    id: ownerId,
    src: row.imageSrc,
    preview_src: row.imageSrc,
    alt: row.imageAlt,
    position: 1,
    width: row.imageWidth ?? 0,
    height: row.imageHeight ?? 0,
  };
}
