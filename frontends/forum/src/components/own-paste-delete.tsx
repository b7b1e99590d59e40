import { PAGES, REDIRECT_DELAY_MS, type PasteDetail } from '@termpaste/contracts';
import { OWN_POSTS_MESSAGES, OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import { Button, toast, useConfirm } from '@termpaste/ui';
import { Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDeleteOwnPaste } from '../api/pastes';

/**
 * The author's DELETE in the paste's header: asks to confirm, deletes it (to the trash: staff may restore
 * it for 30 days) and goes home, as an admin's delete does.
 */
export function OwnPasteDelete({ thread }: { thread: PasteDetail }) {
  const confirm = useConfirm();
  const navigate = useNavigate();
  const remove = useDeleteOwnPaste(String(thread.id));
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const onDelete = async () => {
    const confirmed = await confirm({
      title: OWN_POSTS_TEXTS.confirmDeletePaste,
      description: OWN_POSTS_TEXTS.confirmDeletePasteDetail,
      confirmLabel: OWN_POSTS_TEXTS.deleteButton,
      destructive: true,
    });
    if (!confirmed) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        toast({ title: OWN_POSTS_MESSAGES.pasteDeleted });
        redirect.current = setTimeout(() => navigate(PAGES.home), REDIRECT_DELAY_MS);
      },
    });
  };

  return (
    <Button
      variant="ghost"
      size="sm"
      className="forum-danger-ghost"
      disabled={remove.isPending || remove.isSuccess}
      onClick={() => void onDelete()}
    >
      <Trash2 size={12} aria-hidden="true" />
      {OWN_POSTS_TEXTS.deleteButton}
    </Button>
  );
}
