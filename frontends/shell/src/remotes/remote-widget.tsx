import type { RemoteName } from '@termpaste/contracts';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useRemoteScreens } from './remote-screen';

/** A widget that crashes disappears; the screen around it keeps working. */
class WidgetErrorBoundary extends Component<{ name: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`Widget "${this.props.name}" crashed`, error, info.componentStack);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Mounts a widget a remote exposes beside its screens (REMOTE_WIDGETS), such as the chat popover on
 * home. Unlike a screen it shows nothing while its remote loads or when it is offline.
 */
export function RemoteWidget({ remote, widget }: { remote: RemoteName; widget: string }) {
  const screens = useRemoteScreens(remote);
  const Widget = screens.data?.[widget];
  if (!Widget) return null;
  return (
    <WidgetErrorBoundary name={`${remote}/${widget}`}>
      <Widget />
    </WidgetErrorBoundary>
  );
}
