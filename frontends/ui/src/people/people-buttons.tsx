import { PEOPLE_TEXTS } from '@termpaste/contracts';
import { Ban, VolumeX } from 'lucide-react';
import { useCurrentUser } from '../api/current-user.js';
import { Button } from '../components/button.js';
import { useConfirm } from '../components/confirm.js';
import { useChangePeople, usePeople } from './people.js';

export interface PeopleButtonsProps {
  member: { id: number; username: string; isAdmin?: boolean; isOwner?: boolean };
}

/**
 * MUTE/UNMUTE and BLOCK/UNBLOCK for a member (their profile): none on one's own profile or for a
 * visitor, and no BLOCK for staff (the server refuses it: staff reach members about moderation).
 */
export function PeopleButtons({ member }: PeopleButtonsProps) {
  const { user } = useCurrentUser();
  const people = usePeople();
  const change = useChangePeople();
  const confirm = useConfirm();
  if (user === null || user.id === member.id || !people.isReady) return null;
  const muted = people.muted.has(member.id);
  const blocked = people.blocked.has(member.id);
  const staff = Boolean(member.isAdmin || member.isOwner);

  const onBlock = async () => {
    if (!blocked) {
      const confirmed = await confirm({
        title: PEOPLE_TEXTS.confirmBlock(member.username),
        description: PEOPLE_TEXTS.confirmBlockDetail,
        confirmLabel: PEOPLE_TEXTS.block,
        destructive: true,
      });
      if (!confirmed) return;
    }
    change.mutate({ kind: 'blocks', on: !blocked, member });
  };

  return (
    <div className="tp-people-buttons" role="group" aria-label={`Mute or block ${member.username}`}>
      <Button
        variant="outline"
        size="sm"
        disabled={change.isPending}
        aria-pressed={muted}
        onClick={() => change.mutate({ kind: 'mutes', on: !muted, member })}
      >
        <VolumeX size={14} aria-hidden="true" />
        {muted ? PEOPLE_TEXTS.unmute : PEOPLE_TEXTS.mute}
      </Button>
      {(!staff || blocked) && (
        <Button
          variant="outline"
          size="sm"
          className="tp-people-buttons__block"
          disabled={change.isPending}
          aria-pressed={blocked}
          onClick={() => void onBlock()}
        >
          <Ban size={14} aria-hidden="true" />
          {blocked ? PEOPLE_TEXTS.unblock : PEOPLE_TEXTS.block}
        </Button>
      )}
    </div>
  );
}
