// Fetched when the popover first opens (screens/chat-popover.tsx): home shows only the round button.
import { LIVE_EVENT, MESSAGING_TEXTS, type LiveEvent } from '@termpaste/contracts';
import { Card, IconButton, LiveBadge, refreshQueries, useLiveEvents } from '@termpaste/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useState } from 'react';
import { applyChatModeration, chatQuery } from '../api/messaging';
import { ChatLog, ChatOnlineCount } from './chat';
import { ChatPopoverComposer } from './chat-composer';

export interface ChatPanelProps {
  userId: number;
  onClose: () => void;
}

/** The open panel's window: it exists only while open, so history is read and the socket held only then. */
export default function ChatPanel({ userId, onClose }: ChatPanelProps) {
  const client = useQueryClient();
  const history = useQuery(chatQuery('popover'));
  const refetch = () => void refreshQueries(client, chatQuery('popover').queryKey);
  const [online, setOnline] = useState<number | undefined>(undefined);
  const status = useLiveEvents({
    enabled: true,
    onEvent: (event: LiveEvent) => {
      if (event.type === LIVE_EVENT.chatMessage) refetch();
      if (event.type === LIVE_EVENT.onlineCount) setOnline(event.count);
      if (event.type === LIVE_EVENT.chatHidden) {
        applyChatModeration(client, 'popover', { hidden: event.id, userId });
      }
      if (event.type === LIVE_EVENT.chatShown)
        applyChatModeration(client, 'popover', { shown: event.message });
    },
    onOpen: (reconnected) => {
      if (reconnected) refetch();
    },
  });

  return (
    <Card
      title={MESSAGING_TEXTS.globalChat}
      className="msg-popover__card"
      actions={
        <>
          <ChatOnlineCount count={online} />
          <LiveBadge status={status} />
          <IconButton label="Close global chat" icon={<X size={16} />} size="sm" onClick={onClose} />
        </>
      }
    >
      <ChatLog
        messages={history.data}
        isError={history.isError}
        userId={userId}
        className="msg-popover__log"
      />
      <ChatPopoverComposer autoFocus />
    </Card>
  );
}
