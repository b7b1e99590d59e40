import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Members' e-mail preferences (one row once they change one, or once a mail is sent them: the defaults
 * stand for a missing row), with when the last away mail and digest were sent and the key their
 * unsubscribe links are signed with; and the index the away mails' sweep finds unread notifications by.
 */
export class MailNotices17974000000004 implements MigrationInterface {
  name = 'MailNotices17974000000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    const channel = (kind: string, preset: string) =>
      `${kind}_mail text NOT NULL DEFAULT '${preset}'
        CONSTRAINT mail_settings_${kind}_mail_check CHECK (${kind}_mail IN ('site', 'email'))`;
    await queryRunner.query(`
      CREATE TABLE mail_settings (
        user_id integer CONSTRAINT mail_settings_pkey PRIMARY KEY
          CONSTRAINT mail_settings_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        ${channel('reply', 'email')},
        ${channel('mention', 'email')},
        ${channel('message', 'email')},
        ${channel('watch', 'site')},
        ${channel('tag', 'site')},
        ${channel('follow', 'site')},
        digest text NOT NULL DEFAULT 'weekly'
          CONSTRAINT mail_settings_digest_check CHECK (digest IN ('daily', 'weekly', 'never')),
        notices_mailed_at timestamptz,
        digest_mailed_at timestamptz,
        unsubscribe_key text NOT NULL
      )`);
    await queryRunner.query(
      'CREATE INDEX notifications_unread_idx ON notifications (created_at) WHERE NOT is_read',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX notifications_unread_idx');
    await queryRunner.query('DROP TABLE mail_settings');
  }
}
