import { LAYOUT, LIVE_EVENT, MESSAGING_TEXTS, type LiveEvent } from '@termpaste/contracts';
import { Card, LiveBadge, Spinner, refreshQueries, useCurrentUser, useLiveEvents } from '@termpaste/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { applyChatModeration, chatQuery, prependChatMessage } from '../api/messaging';
import { ChatLog, ChatOnlineCount } from '../components/chat';
import { ChatPageComposer } from '../components/chat-composer';

/**
 * /chat: the global room. A new line joins the list at once, then the list is read again, as after a
 * reconnect.
 */
function ChatRoom({ userId }: { userId: number }) {
  const client = useQueryClient();
  const history = useQuery(chatQuery('page'));
  const refetch = () => void refreshQueries(client, chatQuery('page').queryKey);
  const [online, setOnline] = useState<number | undefined>(undefined);
  const status = useLiveEvents({
    enabled: true,
    onEvent: (event: LiveEvent) => {
      if (event.type === LIVE_EVENT.onlineCount) setOnline(event.count);
      if (event.type === LIVE_EVENT.chatHidden)
        applyChatModeration(client, 'page', { hidden: event.id, userId });
      if (event.type === LIVE_EVENT.chatShown) applyChatModeration(client, 'page', { shown: event.message });
      if (event.type !== LIVE_EVENT.newMessage) return;
      prependChatMessage(client, 'page', event.message);
      refetch();
    },
    onOpen: (reconnected) => {
      if (reconnected) refetch();
    },
  });

  return (
    <Card
      titleLevel={1}
      title={MESSAGING_TEXTS.globalChat}
      actions={
        <>
          <ChatOnlineCount count={online} />
          <LiveBadge status={status} />
        </>
      }
      className="msg-chat"
    >
      <ChatLog
        messages={history.data}
        isError={history.isError}
        userId={userId}
        height={LAYOUT.chatPaneHeightPx}
      />
      <ChatPageComposer />
    </Card>
  );
}

export function ChatScreen() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Spinner label="Loading..." />;
  if (!user) {
    return (
      <Card title={MESSAGING_TEXTS.globalChat} titleLevel={1} className="msg-chat">
        <p className="msg-signed-out">{MESSAGING_TEXTS.chatSignedOut}</p>
      </Card>
    );
  }
  return <ChatRoom userId={user.id} />;
}
