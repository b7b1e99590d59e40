import type { RemoteName } from '@termpaste/contracts';
import { ScreenSkeleton } from '@termpaste/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { ModuleOffline } from './module-offline';
import { remoteLoader } from './registry';

class RemoteErrorBoundary extends Component<
  { remote: string; resetKey: string; children: ReactNode },
  { error: Error | null; resetKey: string }
> {
  override state = { error: null as Error | null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: { resetKey: string },
    state: { error: Error | null; resetKey: string },
  ): Partial<{ error: Error | null; resetKey: string }> | null {
    // Navigating away from a crashed screen gives the next screen a fresh start.
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`Remote "${this.props.remote}" crashed`, error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <ModuleOffline
          remote={this.props.remote}
          detail={`crashed: ${this.state.error.message}`}
          onRetry={() => this.setState({ error: null })}
        />
      );
    }
    return this.props.children;
  }
}

/** The `screens` module of a remote, loaded once (and tried once more) for the whole session. */
export const remoteScreensQuery = (remote: RemoteName) =>
  queryOptions({
    queryKey: ['remote-screens', remote],
    queryFn: () => remoteLoader.loadScreens(remote),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

/** A remote's `screens` module: loaded on first use, or (enabled false) only read if loaded already. */
export function useRemoteScreens(remote: RemoteName, enabled = true) {
  return useQuery({ ...remoteScreensQuery(remote), enabled });
}

/** Mounts one screen exposed by a remote, loading the remote on first use. */
export function RemoteScreen({ remote, screen }: { remote: RemoteName; screen: string }) {
  const location = useLocation();
  const screens = useRemoteScreens(remote);

  if (screens.isPending) return <ScreenSkeleton />;
  if (screens.isError) {
    return (
      <ModuleOffline
        remote={remote}
        onRetry={() => void screens.refetch()}
        detail={screens.isRefetching ? 'retrying...' : undefined}
      />
    );
  }
  const Screen = screens.data[screen];
  if (!Screen) return <ModuleOffline remote={remote} detail={`screen "${screen}" is missing`} />;
  return (
    <RemoteErrorBoundary remote={remote} resetKey={location.pathname}>
      <Screen />
    </RemoteErrorBoundary>
  );
}
