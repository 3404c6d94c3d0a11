import { useEffect, useState } from 'react';
import type { ProductDetail } from '../api/client';
import { useShop } from '../store';
import { hideImage } from '../ui';

type Image = ProductDetail['images'][number];

/** The product's pictures: the chosen one large, every one as a thumbnail button below it (pressed when shown). */
export function Gallery({ images, title }: { images: Image[]; title: string }) {
  const { t } = useShop();
  const shown = images.filter((i) => i.src);
  const [index, setIndex] = useState(0);
  useEffect(() => setIndex(0), [shown[0]?.src]);
  const current = shown[index] ?? shown[0];
  return (
    <div className="gallery" role="group" aria-label={t('gallery')}>
      <div className="product-image">
        {current && <img src={current.src!} alt={current.alt ?? title} width={current.width || 600} height={current.height || 900} onError={hideImage} data-testid="gallery-main" />}
      </div>
      {shown.length > 1 && (
        <ul className="thumbs">
          {shown.map((img, i) => (
            <li key={`${img.src}-${i}`}>
              <button type="button" aria-pressed={i === index} aria-label={t('showImage', { n: i + 1, count: shown.length })} onClick={() => setIndex(i)}>
                <img src={img.src!} alt="" width={48} height={72} loading="lazy" onError={hideImage} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
