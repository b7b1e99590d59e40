import type { MigrationInterface, QueryRunner } from 'typeorm';
import { allowedValues, setAllowedValues } from './audit-constraints.js';

// Literal, not AUDIT_ACTIONS: a migration is history, and must not change when the contracts do.
const TAG_ACTIONS = ['tag.rename', 'tag.merge', 'tag.delete'];

/**
 * threads.tags is all a write sets: triggers keep paste_tags and tags.paste_count (listed pastes, counted
 * at the commit so tag rows are locked last) on every path that changes a paste. An admin's rename, merge
 * or delete (audited) sets `termpaste.tag_triggers` off for its transaction and writes all three itself.
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

    await queryRunner.query(`
      CREATE FUNCTION threads_tags_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        was text[] := CASE WHEN TG_OP <> 'INSERT' AND OLD.listed THEN OLD.tags ELSE '{}' END;
        now_ text[] := CASE WHEN TG_OP <> 'DELETE' AND NEW.listed THEN NEW.tags ELSE '{}' END;
        tag_name text;
        change int;
      BEGIN
        IF current_setting('termpaste.tag_triggers', true) = 'off' THEN
          RETURN NULL;
        END IF;
        -- Row by row in name order: two transactions never wait on each other's tags in a cycle.
        FOR tag_name, change IN
          SELECT name, sum(delta)::int FROM (
            SELECT unnest(now_) AS name, 1 AS delta
            UNION ALL SELECT unnest(was), -1
          ) each_ GROUP BY name HAVING sum(delta) <> 0 ORDER BY name
        LOOP
          UPDATE tags SET paste_count = paste_count + change WHERE name = tag_name;
        END LOOP;
        RETURN NULL;
      END $$`);
    // Deferred: counted at the commit, from each row's before and after.
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER threads_tags_count_insert AFTER INSERT ON threads
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (NEW.listed AND cardinality(NEW.tags) > 0) EXECUTE FUNCTION threads_tags_count()`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER threads_tags_count_update AFTER UPDATE ON threads
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN ((OLD.listed IS DISTINCT FROM NEW.listed OR OLD.tags IS DISTINCT FROM NEW.tags)
        AND (cardinality(OLD.tags) > 0 OR cardinality(NEW.tags) > 0))
      EXECUTE FUNCTION threads_tags_count()`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER threads_tags_count_delete AFTER DELETE ON threads
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (OLD.listed AND cardinality(OLD.tags) > 0) EXECUTE FUNCTION threads_tags_count()`);

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
    for (const trigger of [
      'threads_tags_count_delete',
      'threads_tags_count_update',
      'threads_tags_count_insert',
      'threads_tags_sync_update',
      'threads_tags_sync_insert',
    ]) {
      await queryRunner.query(`DROP TRIGGER ${trigger} ON threads`);
    }
    await queryRunner.query('DROP FUNCTION threads_tags_count()');
    await queryRunner.query('DROP FUNCTION threads_tags_sync()');
  }
}
