import type { CSSProperties } from 'react';
import { cx } from '../lib/cx.js';

export interface SkeletonProps {
  /** A CSS length; a number is pixels. */
  width?: number | string;
  height?: number | string;
  className?: string;
}

/** A shimmering placeholder while data loads; hidden from assistive technology. */
export function Skeleton({ width, height, className }: SkeletonProps) {
  const style: CSSProperties = { width, height };
  return <span aria-hidden="true" className={cx('tp-skeleton', className)} style={style} />;
}
