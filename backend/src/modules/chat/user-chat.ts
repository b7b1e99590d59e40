import type { EntityManager } from 'typeorm';

/** Deletes the member's chat lines (a leaving member who deletes what they posted). */
export async function deleteChatOf(manager: EntityManager, userId: number): Promise<void> {
  await manager.query('DELETE FROM chat_messages WHERE author_id = $1', [userId]);
}
