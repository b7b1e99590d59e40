import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { SshKeyType } from '@termpaste/contracts';

/** An SSH public key member `userId` lists: pastes they sign with it show VERIFIED. */
@Entity('ssh_keys')
@Index('ssh_keys_user_fingerprint_key', ['userId', 'fingerprint'], { unique: true })
export class SshKey {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'ssh_keys_pkey',
  })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { name: 'ssh_keys_user_id_fkey', onDelete: 'CASCADE' })
  userId!: number;

  @Column({ type: 'text' })
  title!: string;

  @Column({ name: 'key_type', type: 'text' })
  keyType!: SshKeyType;

  /** `type base64`, as authorized_keys holds it (no comment). */
  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  /** OpenSSH's `SHA256:…`. */
  @Column({ type: 'text' })
  fingerprint!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
