import type { DigestFrequency, NoticeChannel } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * A member's e-mail preferences, once they changed one or were mailed (no row: the defaults), when their
 * last away mail and digest went out, and the key their unsubscribe links are signed with.
 */
@Entity('mail_settings')
@Check('mail_settings_reply_mail_check', "reply_mail IN ('site', 'email')")
@Check('mail_settings_mention_mail_check', "mention_mail IN ('site', 'email')")
@Check('mail_settings_message_mail_check', "message_mail IN ('site', 'email')")
@Check('mail_settings_watch_mail_check', "watch_mail IN ('site', 'email')")
@Check('mail_settings_tag_mail_check', "tag_mail IN ('site', 'email')")
@Check('mail_settings_follow_mail_check', "follow_mail IN ('site', 'email')")
@Check('mail_settings_digest_check', "digest IN ('daily', 'weekly', 'never')")
export class MailSetting {
  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'mail_settings_pkey' })
  @ForeignKey('users', { name: 'mail_settings_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ name: 'reply_mail', type: 'text', default: 'email' })
  replyMail!: NoticeChannel;

  @Column({ name: 'mention_mail', type: 'text', default: 'email' })
  mentionMail!: NoticeChannel;

  @Column({ name: 'message_mail', type: 'text', default: 'email' })
  messageMail!: NoticeChannel;

  @Column({ name: 'watch_mail', type: 'text', default: 'site' })
  watchMail!: NoticeChannel;

  @Column({ name: 'tag_mail', type: 'text', default: 'site' })
  tagMail!: NoticeChannel;

  @Column({ name: 'follow_mail', type: 'text', default: 'site' })
  followMail!: NoticeChannel;

  @Column({ type: 'text', default: 'weekly' })
  digest!: DigestFrequency;

  /** The away mails so far covered the notifications up to here. */
  @Column({ name: 'notices_mailed_at', type: 'timestamptz', nullable: true })
  noticesMailedAt!: Date | null;

  @Column({ name: 'digest_mailed_at', type: 'timestamptz', nullable: true })
  digestMailedAt!: Date | null;

  /** Random, secret: the HMAC key of the member's unsubscribe links (none to configure, and workers sign too). */
  @Column({ name: 'unsubscribe_key', type: 'text' })
  unsubscribeKey!: string;
}
