import { PAGES, REDIRECT_DELAY_MS, type PasteDetail } from '@termpaste/contracts';
import { Button, toast, useConfirm } from '@termpaste/ui';
import { Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDeletePaste, useToggleFlag, type PasteFlag } from '../api/pastes';

const FLAG_ACTIONS: Array<{
  flag: PasteFlag;
  on: (t: PasteDetail) => boolean;
  set: string;
  unset: string;
}> = [
  { flag: 'pin', on: (t) => t.isPinned, set: 'PIN', unset: 'UNPIN' },
  { flag: 'lock', on: (t) => t.isLocked, set: 'LOCK', unset: 'UNLOCK' },
  { flag: 'featured', on: (t) => t.isFeatured, set: 'FEATURE', unset: 'UNFEATURE' },
];

/**
 * An admin's buttons on a paste: pin, lock, feature (or take back), delete and go home; each asks to confirm.
 */
export function PasteModeration({ thread }: { thread: PasteDetail }) {
  const id = String(thread.id);
  const confirm = useConfirm();
  const navigate = useNavigate();
  const toggle = useToggleFlag(id);
  const remove = useDeletePaste(id);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const onToggle = async (action: (typeof FLAG_ACTIONS)[number]) => {
    const label = action.on(thread) ? action.unset : action.set;
    if (!(await confirm({ title: `${label} this paste?`, description: thread.title, confirmLabel: label })))
      return;
    toggle.mutate(action.flag, {
      onSuccess: () => toast({ title: `Thread ${action.flag} status toggled` }),
    });
  };

  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'Delete this paste?',
      description: 'The paste, its replies and its votes are deleted. This cannot be undone.',
      confirmLabel: 'DELETE',
      destructive: true,
    });
    if (!confirmed) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        toast({ title: 'Thread deleted successfully' });
        redirect.current = setTimeout(() => navigate(PAGES.home), REDIRECT_DELAY_MS);
      },
    });
  };

  return (
    <div className="forum-admin" role="group" aria-label="Moderation">
      {FLAG_ACTIONS.map((action) => (
        <Button
          key={action.flag}
          variant="outline"
          size="sm"
          disabled={toggle.isPending || remove.isPending}
          onClick={() => void onToggle(action)}
        >
          {action.on(thread) ? action.unset : action.set}
        </Button>
      ))}
      <Button
        variant="danger"
        size="sm"
        disabled={remove.isPending || remove.isSuccess}
        onClick={() => void onDelete()}
      >
        <Trash2 size={12} aria-hidden="true" />
        DELETE
      </Button>
    </div>
  );
}
