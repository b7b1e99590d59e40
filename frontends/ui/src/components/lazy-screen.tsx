import { lazy, Suspense, type ComponentType } from 'react';
import { Skeleton } from './skeleton.js';

/** Grey lines where a screen will be, while its code or its remote loads. */
export function ScreenSkeleton() {
  return (
    <div className="tp-screen-loading" aria-busy="true" aria-label="Loading">
      <Skeleton height="2rem" width="40%" />
      <Skeleton height="1rem" />
      <Skeleton height="1rem" width="85%" />
      <Skeleton height="1rem" width="70%" />
    </div>
  );
}

/**
 * A screen whose code is fetched the first time it is shown (a remote's screens but its first one):
 * `lazyScreen(() => import('./screens/thread').then((m) => m.PasteScreen))`. Shows ScreenSkeleton,
 * the skeleton the shell shows while the remote itself loads, until then.
 */
export function lazyScreen(load: () => Promise<ComponentType>): ComponentType {
  const Screen = lazy(() => load().then((component) => ({ default: component })));
  function LazyScreen() {
    return (
      <Suspense fallback={<ScreenSkeleton />}>
        <Screen />
      </Suspense>
    );
  }
  return LazyScreen;
}
