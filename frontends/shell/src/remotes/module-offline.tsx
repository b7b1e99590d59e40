import { TEXTS } from '@termpaste/contracts';
import { Button, Card, useTakeOverPaint } from '@termpaste/ui';

/** Shown in a remote's area when it cannot be loaded or crashes; the rest of the shell keeps working. */
export function ModuleOffline({
  remote,
  detail,
  onRetry,
}: {
  remote: string;
  detail?: string;
  onRetry?: () => void;
}) {
  // A painted page waiting for this remote would hide the panel: it gives way as soon as the panel shows.
  useTakeOverPaint();
  return (
    <div className="shell-offline" role="alert" data-testid="module-offline">
      <Card titleLevel={1} title={TEXTS.moduleOffline}>
        <pre className="shell-offline__log">
          {`> mount ${remote}\n`}
          <span className="shell-offline__err">{`[ERR] module "${remote}" is offline\n`}</span>
          {'> the rest of the terminal keeps running.\n'}
          {detail ? `> ${detail}` : ''}
        </pre>
        <p className="shell-muted">
          This part of Termpaste could not be loaded. Check your connection or try again in a moment.
        </p>
        {onRetry && (
          <Button variant="outline" onClick={onRetry}>
            RETRY
          </Button>
        )}
      </Card>
    </div>
  );
}
