import { LIMITS, LAYOUT } from '@termpaste/contracts';
import { Button, CharCount, Input, Textarea } from '@termpaste/ui';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useSendChat } from '../api/messaging';

/**
 * Sends what was typed, trimmed (nothing when blank or pending); clears the box unless the member typed on
 * meanwhile.
 */
function useChatInput(variant: 'page' | 'popover') {
  const [text, setText] = useState('');
  const send = useSendChat(variant);
  const submit = (after?: () => void) => {
    const line = text.trim();
    if (!line || send.isPending) return;
    send.mutate(line, {
      onSuccess: () => {
        setText((current) => (current.trim() === line ? '' : current));
        after?.();
      },
    });
  };
  return { text, setText, submit, pending: send.isPending, empty: !text.trim() };
}

/** The counter under a chat box: characters used of the 500 allowed. */
function Counter({ length }: { length: number }) {
  return <CharCount length={length} max={LIMITS.chatMessageMax} testId="chat-counter" />;
}

/** The chat page's box: a textarea where Enter sends and Shift+Enter adds a line. */
export function ChatPageComposer() {
  const box = useRef<HTMLTextAreaElement>(null);
  const { text, setText, submit, pending, empty } = useChatInput('page');
  const focusBox = () => box.current?.focus();

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(focusBox);
  };

  return (
    <form className="msg-chat-composer" onSubmit={onSubmit}>
      <Textarea
        ref={box}
        aria-label="Message"
        className="msg-chat-composer__box"
        style={{ minHeight: LAYOUT.chatTextareaMinHeightPx }}
        value={text}
        maxLength={LIMITS.chatMessageMax}
        placeholder="Say something to everyone..."
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="msg-chat-composer__bar">
        <span className="msg-muted msg-hint-keys">
          <kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line
        </span>
        <Counter length={text.length} />
        <Button type="submit" size="sm" disabled={empty} loading={pending}>
          {pending ? 'SENDING...' : 'SEND'}
        </Button>
      </div>
    </form>
  );
}

/** The popover's one-line box and Send button; Enter submits the form. */
export function ChatPopoverComposer({ autoFocus }: { autoFocus?: boolean }) {
  const { text, setText, submit, pending, empty } = useChatInput('popover');
  return (
    <form
      className="msg-popover-composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Input
        aria-label="Message"
        value={text}
        maxLength={LIMITS.chatMessageMax}
        placeholder="Type a message..."
        autoComplete="off"
        autoFocus={autoFocus}
        onChange={(event) => setText(event.target.value)}
      />
      <Button type="submit" size="sm" disabled={empty} loading={pending}>
        SEND
      </Button>
      <Counter length={text.length} />
    </form>
  );
}
