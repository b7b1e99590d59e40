import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** The SHA-256 of a one-time setup code printed while there is no owner. */
@Entity('owner_setup_codes')
@Unique('owner_setup_codes_code_hash_key', ['codeHash'])
export class OwnerSetupCode {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'owner_setup_codes_pkey',
  })
  id!: number;

  @Column({ name: 'code_hash', type: 'text' })
  codeHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
