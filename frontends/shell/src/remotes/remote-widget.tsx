import type { RemoteName, RemoteWidgetProps, WidgetFacade, WidgetIcon } from '@termpaste/contracts';
import { Dock, DockButton, useCurrentUser } from '@termpaste/ui';
import { useQueryClient } from '@tanstack/react-query';
import { MessagesSquare, type LucideIcon } from 'lucide-react';
import { Component, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { remoteScreensQuery, useRemoteScreens } from './remote-screen';

/** The lucide icon of each facade's icon key (REMOTE_WIDGETS in contracts). */
const FACADE_ICONS: Record<WidgetIcon, LucideIcon> = { 'messages-square': MessagesSquare };

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

/** The widget's stand-in: its round button as the widget draws it, with none of the remote's code. */
function Facade({
  facade,
  busy,
  onIntent,
  onOpen,
}: {
  facade: WidgetFacade;
  busy: boolean;
  onIntent: () => void;
  onOpen: () => void;
}) {
  const Icon = FACADE_ICONS[facade.icon];
  return (
    <Dock>
      <DockButton
        label={facade.label}
        aria-expanded={false}
        busy={busy}
        onPointerEnter={onIntent}
        onFocus={onIntent}
        onClick={onOpen}
      >
        <Icon aria-hidden="true" size={24} />
      </DockButton>
    </Dock>
  );
}

/**
 * Mounts a remote's widget (REMOTE_WIDGETS) on interaction: until then the page shows a facade and
 * loads nothing of the remote; pointing fetches it, a click mounts the widget open. A remote loaded
 * already mounts it at once, closed. Nothing when the remote is offline or a visitor meets a members' widget.
 */
export function RemoteWidget({
  remote,
  widget,
  facade,
}: {
  remote: RemoteName;
  widget: string;
  facade: WidgetFacade;
}) {
  const { user } = useCurrentUser();
  const client = useQueryClient();
  // null: the facade; 'closed': the widget itself, its remote loaded before this mount; 'open': clicked.
  const [mount, setMount] = useState<'closed' | 'open' | null>(() =>
    client.getQueryData(remoteScreensQuery(remote).queryKey) === undefined ? null : 'closed',
  );
  const screens = useRemoteScreens(remote, mount !== null);

  if (facade.membersOnly && !user) return null;
  if (mount !== null) {
    if (screens.data) {
      const Widget = screens.data[widget] as ComponentType<RemoteWidgetProps> | undefined;
      if (!Widget) return null;
      return (
        <WidgetErrorBoundary name={`${remote}/${widget}`}>
          <Widget defaultOpen={mount === 'open'} />
        </WidgetErrorBoundary>
      );
    }
    // Offline (tried, and tried once more): gone, as the widget would be.
    if (screens.isError && !screens.isFetching) return null;
  }
  return (
    <Facade
      facade={facade}
      busy={mount !== null}
      onIntent={() => void client.prefetchQuery(remoteScreensQuery(remote))}
      onOpen={() => setMount('open')}
    />
  );
}
