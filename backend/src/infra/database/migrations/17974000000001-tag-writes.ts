import type { MigrationInterface, QueryRunner } from 'typeorm';
import { allowedValues, setAllowedValues } from './audit-constraints.js';

// Literal, not AUDIT_ACTIONS: a migration is history, and must not change when the contracts do.
const TAG_ACTIONS = ['tag.rename', 'tag.merge', 'tag.delete'];

/**
 * threads.tags is all a write sets: triggers keep paste_tags and tags.paste_count (listed pastes, summed
 * per tag and applied at the commit, so tag rows are locked last) on every path that changes a paste. An
 * admin's rename, merge or delete (audited) turns them off (`termpaste.tag_triggers`) and writes itself.
 */
export class TagWrites17974000000001 implements MigrationInterface {
  name = 'TagWrites17974000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION threads_tags_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        was text[] := CASE WHEN TG_OP = 'UPDATE' THEN OLD.tags ELSE '{}' END;
      BEGIN
        IF current_setting('termpaste.tag_triggers', true) = 'off' THEN
          RETURN NULL;
        END IF;
        DELETE FROM paste_tags pt USING tags g
        WHERE pt.thread_id = NEW.id AND g.id = pt.tag_id AND g.name = ANY (was) AND NOT g.name = ANY (NEW.tags);
        INSERT INTO tags (name)
        SELECT DISTINCT name FROM unnest(NEW.tags) name WHERE NOT name = ANY (was) ORDER BY name
        ON CONFLICT (name) DO NOTHING;
        INSERT INTO paste_tags (thread_id, tag_id, created_at)
        SELECT NEW.id, g.id, NEW.created_at FROM tags g WHERE g.name = ANY (NEW.tags) AND NOT g.name = ANY (was)
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER threads_tags_sync_insert AFTER INSERT ON threads FOR EACH ROW
      WHEN (cardinality(NEW.tags) > 0) EXECUTE FUNCTION threads_tags_sync()`);
    await queryRunner.query(`
      CREATE TRIGGER threads_tags_sync_update AFTER UPDATE OF tags ON threads FOR EACH ROW
      WHEN (OLD.tags IS DISTINCT FROM NEW.tags) EXECUTE FUNCTION threads_tags_sync()`);

    // Each row's change of counts, added up per tag in a setting of the transaction: a transaction that
    // changes many pastes moves each tag's count once, at the commit (threads_tags_count).
    await queryRunner.query(`
      CREATE FUNCTION threads_tags_pending() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        was text[] := CASE WHEN TG_OP <> 'INSERT' AND OLD.listed THEN OLD.tags ELSE '{}' END;
        now_ text[] := CASE WHEN TG_OP <> 'DELETE' AND NEW.listed THEN NEW.tags ELSE '{}' END;
        pending jsonb;
        each_ record;
      BEGIN
        IF current_setting('termpaste.tag_triggers', true) = 'off' THEN
          RETURN NULL;
        END IF;
        pending := COALESCE(NULLIF(current_setting('termpaste.tag_count_pending', true), ''), '{}')::jsonb;
        FOR each_ IN
          SELECT name, sum(delta)::int AS change FROM (
            SELECT unnest(now_) AS name, 1 AS delta
            UNION ALL SELECT unnest(was), -1
          ) deltas GROUP BY name HAVING sum(delta) <> 0
        LOOP
          pending := jsonb_set(pending, ARRAY[each_.name],
            to_jsonb(COALESCE((pending ->> each_.name)::int, 0) + each_.change));
        END LOOP;
        PERFORM set_config('termpaste.tag_count_pending', pending::text, true);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION threads_tags_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        pending text := current_setting('termpaste.tag_count_pending', true);
        each_ record;
      BEGIN
        IF pending IS NULL OR pending IN ('', '{}') THEN
          RETURN NULL;
        END IF;
        PERFORM set_config('termpaste.tag_count_pending', '{}', true);
        -- In name order: two transactions never wait on each other's tags in a cycle.
        FOR each_ IN
          SELECT key AS name, value::int AS change FROM jsonb_each_text(pending::jsonb)
          WHERE value::int <> 0 ORDER BY key
        LOOP
          UPDATE tags SET paste_count = paste_count + each_.change WHERE name = each_.name;
        END LOOP;
        RETURN NULL;
      END $$`);
    const events = [
      ['insert', 'INSERT', 'NEW.listed AND cardinality(NEW.tags) > 0'],
      [
        'update',
        'UPDATE',
        '(OLD.listed IS DISTINCT FROM NEW.listed OR OLD.tags IS DISTINCT FROM NEW.tags) ' +
          'AND (cardinality(OLD.tags) > 0 OR cardinality(NEW.tags) > 0)',
      ],
      ['delete', 'DELETE', 'OLD.listed AND cardinality(OLD.tags) > 0'],
    ];
    for (const [name, event, when] of events) {
      await queryRunner.query(`
        CREATE TRIGGER threads_tags_pending_${name} AFTER ${event} ON threads FOR EACH ROW
        WHEN (${when}) EXECUTE FUNCTION threads_tags_pending()`);
      // Deferred to the commit: a transaction locks tag rows last of all its row locks.
      await queryRunner.query(`
        CREATE CONSTRAINT TRIGGER threads_tags_count_${name} AFTER ${event} ON threads
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (${when}) EXECUTE FUNCTION threads_tags_count()`);
    }

    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(queryRunner, 'audit_log', 'action', 'audit_log_action_check', [
      ...actions.filter((action) => !TAG_ACTIONS.includes(action)),
      ...TAG_ACTIONS,
    ]);
    const targets = await allowedValues(queryRunner, 'audit_log_target_type_check');
    await setAllowedValues(queryRunner, 'audit_log', 'target_type', 'audit_log_target_type_check', [
      ...targets.filter((target) => target !== 'tag'),
      'tag',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM audit_log WHERE action = ANY($1) OR target_type = 'tag'", [
      TAG_ACTIONS,
    ]);
    const targets = await allowedValues(queryRunner, 'audit_log_target_type_check');
    await setAllowedValues(
      queryRunner,
      'audit_log',
      'target_type',
      'audit_log_target_type_check',
      targets.filter((target) => target !== 'tag'),
    );
    const actions = await allowedValues(queryRunner, 'audit_log_action_check');
    await setAllowedValues(
      queryRunner,
      'audit_log',
      'action',
      'audit_log_action_check',
      actions.filter((action) => !TAG_ACTIONS.includes(action)),
    );
    for (const name of ['delete', 'update', 'insert']) {
      await queryRunner.query(`DROP TRIGGER threads_tags_count_${name} ON threads`);
      await queryRunner.query(`DROP TRIGGER threads_tags_pending_${name} ON threads`);
    }
    await queryRunner.query('DROP TRIGGER threads_tags_sync_update ON threads');
    await queryRunner.query('DROP TRIGGER threads_tags_sync_insert ON threads');
    await queryRunner.query('DROP FUNCTION threads_tags_count()');
    await queryRunner.query('DROP FUNCTION threads_tags_pending()');
    await queryRunner.query('DROP FUNCTION threads_tags_sync()');
  }
}
