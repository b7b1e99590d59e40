import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An upload handed out but not yet claimed; the sweep deletes the objects of old rows. No foreign key on
 * the member: a deleted member's unclaimed objects are swept too.
 */
@Entity('pending_uploads')
@Index('pending_uploads_created_idx', ['createdAt'])
export class PendingUpload {
  /** The object's storage key. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pending_uploads_pkey' })
  key!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** When the presigned PUT address was used (it takes one upload); null: not yet, or refused. */
  @Column({ name: 'put_at', type: 'timestamptz', nullable: true })
  putAt!: Date | null;
}
