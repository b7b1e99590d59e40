import { z } from 'zod';
import { storableText } from './text.js';

/*
 * Members' SSH public keys and signed pastes: a paste may carry an SSH signature (`ssh-keygen -Y sign -n
 * termpaste`) over its exact bytes, checked against its author's keys.
 */

/** The namespace every paste signature is made in (`ssh-keygen -Y sign -n termpaste`). */
export const SIGNING_NAMESPACE = 'termpaste';
/** SSH keys a member may list at once. */
export const SSH_KEYS_PER_USER_MAX = 10;
export const SSH_KEY_TITLE_MAX = 64;
/** A key line as pasted (an RSA key of 16384 bits is about 2,800 characters). */
export const SSH_KEY_MAX_CHARS = 8192;
/** An armoured signature (an RSA 16384-bit one is about 5,000 characters). */
export const SIGNATURE_MAX_CHARS = 16_384;

/** The key types a member may add; the `sk-` ones live on a security key. */
export const SSH_KEY_TYPES = [
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

export const SSH_KEY_MESSAGES = {
  keyRequired: 'Paste a public key: one line such as "ssh-ed25519 AAAA… you@host"',
  keyTooLong: `A public key is at most ${SSH_KEY_MAX_CHARS} characters`,
  titleTooLong: `Key title must be at most ${SSH_KEY_TITLE_MAX} characters`,
  /** A private key pasted where the public one belongs: never stored, never echoed. */
  privateKey:
    'This is a PRIVATE key: never share it. Paste the public key instead (the .pub file, e.g. ~/.ssh/id_ed25519.pub)',
  unknownType: `Unsupported key type: use one of ${SSH_KEY_TYPES.join(', ')}`,
  notBase64: 'The key is not valid: its second word must be the key in base64',
  malformed: 'The key is not valid: its data cannot be read as an SSH public key',
  typeMismatch: (outer: string, inner: string) =>
    `The key is not valid: it says "${outer}" but holds a "${inner}" key`,
  rsaTooSmall: 'RSA keys must have at least 2048 bits',
  oneKey: 'Paste one key at a time (one line)',
  tooMany: `You can have at most ${SSH_KEYS_PER_USER_MAX} SSH keys. Delete one first.`,
  duplicate: 'You have already added this key',
  notFound: 'SSH key not found',
} as const;

export const SIGNATURE_MESSAGES = {
  tooLong: `A signature is at most ${SIGNATURE_MAX_CHARS} characters`,
  notString: 'signature must be the armoured text of ssh-keygen -Y sign',
  /** Not `-----BEGIN SSH SIGNATURE-----` … `-----END SSH SIGNATURE-----` with an SSHSIG inside. */
  malformed:
    'The signature cannot be read: send the whole armoured text of ssh-keygen -Y sign (-----BEGIN SSH SIGNATURE----- … -----END SSH SIGNATURE-----)',
  namespace: (namespace: string) =>
    `The signature was made for the namespace "${namespace}": sign with ssh-keygen -Y sign -n ${SIGNING_NAMESPACE}`,
  hashAlgorithm: 'The signature uses an unsupported hash: sha256 or sha512',
  keyType: 'The signature was made with an unsupported key type',
  /** The key in the signature is none of the author's keys. */
  unknownKey: (fingerprint: string) =>
    `The signing key (${fingerprint}) is not one of your SSH keys: add its public key in Settings → SSH keys first`,
  /** The signature is well formed and by one of the author's keys, but not over these bytes. */
  mismatch: 'The signature does not match the content: sign the exact bytes you paste',
  /** An edit's new signature from anyone but the paste's author (staff may edit, never sign for them). */
  authorOnly: "Only a paste's author can sign it",
  /** 404 of raw.sig for a paste without a signature. */
  unsigned: 'This paste is not signed',
} as const;

/** `POST /api/user/keys` {key, title?}: the title defaults to the key's comment. */
export const addSshKeySchema = z.object({
  key: z
    .string({ error: SSH_KEY_MESSAGES.keyRequired })
    .trim()
    .min(1, SSH_KEY_MESSAGES.keyRequired)
    .max(SSH_KEY_MAX_CHARS, SSH_KEY_MESSAGES.keyTooLong),
  title: z
    .preprocess(
      storableText,
      z
        .string({ error: SSH_KEY_MESSAGES.titleTooLong })
        .trim()
        .max(SSH_KEY_TITLE_MAX, SSH_KEY_MESSAGES.titleTooLong),
    )
    .optional(),
});
export type AddSshKeyBody = z.infer<typeof addSshKeySchema>;

/** A member's key as listed: `fingerprint` is OpenSSH's `SHA256:…` (ssh-keygen -lf). Dates are ISO 8601. */
export const sshKeySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  type: z.enum(SSH_KEY_TYPES),
  fingerprint: z.string(),
  /** The key as `authorized_keys` holds it: type and base64, without the comment. */
  publicKey: z.string(),
  createdAt: z.string(),
});
export type SshKey = z.infer<typeof sshKeySchema>;

/** `GET /api/user/keys`: the member's keys, oldest first. */
export const sshKeyListSchema = z.array(sshKeySchema);

/**
 * A signed paste's signature as its page shows it: `verified` while its author still lists the key that
 * made it, `key-removed` once they no longer do (or their account is gone). A paste whose signature did
 * not check was never made (422), and an edit drops the signature.
 */
export const pasteSignatureSchema = z.object({
  state: z.enum(['verified', 'key-removed']),
  fingerprint: z.string(),
  keyType: z.string(),
  /** The author's title of the key, while they list it. */
  keyTitle: z.string().nullable(),
});
export type PasteSignature = z.infer<typeof pasteSignatureSchema>;

/** A paste's optional `signature`: the armoured text, bounded (checked by the server). */
export const signatureFieldSchema = z
  .string({ error: SIGNATURE_MESSAGES.notString })
  .max(SIGNATURE_MAX_CHARS, SIGNATURE_MESSAGES.tooLong);

export const SIGNING_TEXTS = {
  verified: 'VERIFIED',
  verifiedDetail: (fingerprint: string, title: string | null) =>
    `signed with ${title ? `"${title}" (${fingerprint})` : fingerprint}`,
  keyRemoved: 'SIGNATURE NOT VERIFIED',
  keyRemovedDetail: (fingerprint: string) =>
    `signed with ${fingerprint}, a key its author no longer lists: treat it as unsigned`,
} as const;
