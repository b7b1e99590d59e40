import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import {
  SIGNATURE_MESSAGES,
  SIGNING_NAMESPACE,
  SSH_KEY_MESSAGES,
  SSH_KEY_TYPES,
  type SshKeyType,
} from '@termpaste/contracts';

/*
 * OpenSSH public keys (RFC 4253, RFC 5656, PROTOCOL.u2f) and SSH signatures (PROTOCOL.sshsig), read
 * and checked with node:crypto alone. No npm package verifies SSHSIG (sshpk reads keys, not this format).
 */

/** Why a key or a signature was refused: the text is the client's (SSH_KEY_MESSAGES, SIGNATURE_MESSAGES). */
export class SshFormatError extends Error {}

/** Reads RFC 4251's types from an SSH wire buffer; running off its end is a SshFormatError. */
class Reader {
  private offset = 0;

  constructor(
    private readonly buffer: Buffer,
    private readonly fault: string,
  ) {}

  bytes(length: number): Buffer {
    if (length < 0 || this.offset + length > this.buffer.length) throw new SshFormatError(this.fault);
    const out = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  uint32(): number {
    return this.bytes(4).readUInt32BE(0);
  }

  byte(): number {
    return this.bytes(1)[0]!;
  }

  string(): Buffer {
    return this.bytes(this.uint32());
  }

  text(): string {
    return this.string().toString('latin1');
  }

  /** An mpint's magnitude, without its sign byte (a key's numbers are positive). */
  mpint(): Buffer {
    const value = this.string();
    if (value.length > 0 && value[0]! & 0x80) throw new SshFormatError(this.fault);
    let start = 0;
    while (start < value.length && value[start] === 0) start++;
    return value.subarray(start);
  }

  end(): void {
    if (this.offset !== this.buffer.length) throw new SshFormatError(this.fault);
  }
}

const sshString = (value: Buffer | string): Buffer => {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([length, bytes]);
};

const b64url = (bytes: Buffer): string => bytes.toString('base64url');

/** A NIST curve by its SSH name: JWK name, coordinate size, the hash its signatures use. */
const CURVES = {
  nistp256: { crv: 'P-256', size: 32, hash: 'sha256' },
  nistp384: { crv: 'P-384', size: 48, hash: 'sha384' },
  nistp521: { crv: 'P-521', size: 66, hash: 'sha512' },
} as const;
type CurveName = keyof typeof CURVES;

/** A public key read from its wire blob. */
export interface PublicKey {
  type: SshKeyType;
  /** The wire blob (what `authorized_keys` holds in base64, and what the fingerprint hashes). */
  blob: Buffer;
  key: KeyObject;
  /** ECDSA keys: their curve. */
  curve?: CurveName;
  /** Security keys (`sk-`): the application string signatures are bound to (usually `ssh:`). */
  application?: string;
}

/** OpenSSH's fingerprint of a key blob: `SHA256:` and the unpadded base64 of its SHA-256. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

function ecKey(reader: Reader, fault: string): { key: KeyObject; curve: CurveName } {
  const curveName = reader.text();
  if (!Object.hasOwn(CURVES, curveName)) throw new SshFormatError(fault);
  const curve = CURVES[curveName as CurveName];
  const point = reader.string();
  // Uncompressed points only, as OpenSSH writes them.
  if (point.length !== 1 + 2 * curve.size || point[0] !== 0x04) throw new SshFormatError(fault);
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: curve.crv,
      x: b64url(point.subarray(1, 1 + curve.size)),
      y: b64url(point.subarray(1 + curve.size)),
    },
    format: 'jwk',
  });
  return { key, curve: curveName as CurveName };
}

function ed25519Key(reader: Reader, fault: string): KeyObject {
  const point = reader.string();
  if (point.length !== 32) throw new SshFormatError(fault);
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(point) }, format: 'jwk' });
}

/** The smallest RSA modulus a key may have. */
const RSA_MIN_BITS = 2048;

/**
 * Reads a public key's wire blob; its inner type must be `expected` when given (the key line's first word).
 * SshFormatError with SSH_KEY_MESSAGES' text (`fault` for bytes that are no key).
 */
export function readPublicKey(
  blob: Buffer,
  expected?: string,
  fault: string = SSH_KEY_MESSAGES.malformed,
): PublicKey {
  const reader = new Reader(blob, fault);
  const type = reader.text();
  if (expected !== undefined && type !== expected) {
    throw new SshFormatError(
      (SSH_KEY_TYPES as readonly string[]).includes(type) || /^[\x21-\x7e]{1,64}$/.test(type)
        ? SSH_KEY_MESSAGES.typeMismatch(expected, type)
        : fault,
    );
  }
  let parsed: Omit<PublicKey, 'blob'>;
  try {
    switch (type) {
      case 'ssh-ed25519':
        parsed = { type, key: ed25519Key(reader, fault) };
        break;
      case 'sk-ssh-ed25519@openssh.com':
        parsed = { type, key: ed25519Key(reader, fault), application: reader.text() };
        break;
      case 'ssh-rsa': {
        const e = reader.mpint();
        const n = reader.mpint();
        if (n.length * 8 < RSA_MIN_BITS - 7 || e.length === 0) {
          throw new SshFormatError(n.length === 0 ? fault : SSH_KEY_MESSAGES.rsaTooSmall);
        }
        const key = createPublicKey({ key: { kty: 'RSA', n: b64url(n), e: b64url(e) }, format: 'jwk' });
        if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < RSA_MIN_BITS) {
          throw new SshFormatError(SSH_KEY_MESSAGES.rsaTooSmall);
        }
        parsed = { type, key };
        break;
      }
      case 'ecdsa-sha2-nistp256':
      case 'ecdsa-sha2-nistp384':
      case 'ecdsa-sha2-nistp521': {
        const { key, curve } = ecKey(reader, fault);
        if (type !== `ecdsa-sha2-${curve}`) throw new SshFormatError(fault);
        parsed = { type, key, curve };
        break;
      }
      case 'sk-ecdsa-sha2-nistp256@openssh.com': {
        const { key, curve } = ecKey(reader, fault);
        if (curve !== 'nistp256') throw new SshFormatError(fault);
        parsed = { type, key, curve, application: reader.text() };
        break;
      }
      default:
        throw new SshFormatError(SSH_KEY_MESSAGES.unknownType);
    }
  } catch (error) {
    if (error instanceof SshFormatError) throw error;
    // node:crypto refused the numbers (a point off its curve): not a key.
    throw new SshFormatError(fault);
  }
  reader.end();
  return { ...parsed, blob };
}

/** A key line as a member pastes it: type, base64 blob, optional comment. */
export interface KeyLine extends PublicKey {
  fingerprint: string;
  comment: string;
  /** `type base64`, as `authorized_keys` (and GET /api/users/{id}/keys) holds it. */
  line: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Reads one `authorized_keys`-style line; SshFormatError with SSH_KEY_MESSAGES' text. */
export function parseKeyLine(text: string): KeyLine {
  const trimmed = text.trim();
  if (trimmed === '') throw new SshFormatError(SSH_KEY_MESSAGES.keyRequired);
  if (/PRIVATE KEY|PuTTY-User-Key-File/i.test(trimmed)) throw new SshFormatError(SSH_KEY_MESSAGES.privateKey);
  if (/[\r\n]/.test(trimmed)) throw new SshFormatError(SSH_KEY_MESSAGES.oneKey);
  const [type = '', data = '', ...comment] = trimmed.split(/[ \t]+/);
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type))
    throw new SshFormatError(SSH_KEY_MESSAGES.unknownType);
  if (!BASE64.test(data) || data.length % 4 !== 0) throw new SshFormatError(SSH_KEY_MESSAGES.notBase64);
  const key = readPublicKey(Buffer.from(data, 'base64'), type);
  return {
    ...key,
    fingerprint: fingerprintOf(key.blob),
    comment: comment.join(' '),
    line: `${type} ${key.blob.toString('base64')}`,
  };
}

/** An SSH signature read from its armour (PROTOCOL.sshsig), not yet checked. */
export interface SshSignature {
  publicKey: PublicKey;
  fingerprint: string;
  namespace: string;
  hashAlgorithm: 'sha256' | 'sha512';
  /** The inner signature: its algorithm name and bytes (and a security key's flags and counter). */
  algorithm: string;
  bytes: Buffer;
  sk?: { flags: number; counter: number };
}

const ARMOUR =
  /^-----BEGIN SSH SIGNATURE-----\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n?-----END SSH SIGNATURE-----\s*$/;
const MAGIC = Buffer.from('SSHSIG');

/** Reads an armoured signature; SshFormatError with SIGNATURE_MESSAGES' text. Checks no cryptography. */
export function parseSignature(armoured: string): SshSignature {
  const fault = SIGNATURE_MESSAGES.malformed;
  const match = ARMOUR.exec(armoured.trim());
  if (!match) throw new SshFormatError(fault);
  const base64 = match[1]!.replace(/\s+/g, '');
  if (!BASE64.test(base64) || base64.length % 4 !== 0) throw new SshFormatError(fault);
  const reader = new Reader(Buffer.from(base64, 'base64'), fault);
  if (!reader.bytes(MAGIC.length).equals(MAGIC) || reader.uint32() !== 1) throw new SshFormatError(fault);
  const blob = reader.string();
  const namespace = reader.text();
  reader.string(); // reserved
  const hashAlgorithm = reader.text();
  const signature = new Reader(reader.string(), fault);
  reader.end();
  if (namespace !== SIGNING_NAMESPACE) throw new SshFormatError(SIGNATURE_MESSAGES.namespace(namespace));
  if (hashAlgorithm !== 'sha256' && hashAlgorithm !== 'sha512') {
    throw new SshFormatError(SIGNATURE_MESSAGES.hashAlgorithm);
  }
  let publicKey: PublicKey;
  try {
    publicKey = readPublicKey(blob, undefined, fault);
  } catch (error) {
    // A key of a type we do not take, or too weak: the signature's key type is refused.
    const text = (error as Error).message;
    throw new SshFormatError(text === fault ? fault : SIGNATURE_MESSAGES.keyType);
  }
  const algorithm = signature.text();
  const bytes = signature.string();
  const sk =
    publicKey.application === undefined
      ? undefined
      : { flags: signature.byte(), counter: signature.uint32() };
  signature.end();
  return { publicKey, fingerprint: fingerprintOf(blob), namespace, hashAlgorithm, algorithm, bytes, sk };
}

/** The bytes an SSHSIG signs: the preamble, namespace, hash name and the message's hash. */
function signedData(signature: SshSignature, message: Buffer): Buffer {
  return Buffer.concat([
    MAGIC,
    sshString(signature.namespace),
    sshString(''),
    sshString(signature.hashAlgorithm),
    sshString(createHash(signature.hashAlgorithm).update(message).digest()),
  ]);
}

/** An SSH ECDSA signature (mpint r, mpint s) as IEEE P1363 (r‖s, each the curve's size). */
function p1363(bytes: Buffer, size: number): Buffer | null {
  const reader = new Reader(bytes, SIGNATURE_MESSAGES.malformed);
  const r = reader.mpint();
  const s = reader.mpint();
  reader.end();
  if (r.length > size || s.length > size) return null;
  const out = Buffer.alloc(2 * size);
  r.copy(out, size - r.length);
  s.copy(out, 2 * size - s.length);
  return out;
}

/** Security keys sign a digest of the data with the application, flags and counter (PROTOCOL.u2f). */
function skData(signature: SshSignature, data: Buffer): Buffer {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(signature.sk!.counter, 0);
  return Buffer.concat([
    createHash('sha256').update(signature.publicKey.application!, 'latin1').digest(),
    Buffer.from([signature.sk!.flags]),
    counter,
    createHash('sha256').update(data).digest(),
  ]);
}

/** The "user present" flag a security key sets when touched; ssh-keygen -Y verify asks for it too. */
const SK_USER_PRESENT = 0x01;

/**
 * Whether `signature` (parsed) signs `message` with its own key. A signature algorithm that does not fit
 * its key (or `ssh-rsa`, SHA-1) is SshFormatError(keyType).
 */
export function verifySignature(signature: SshSignature, message: Buffer): boolean {
  const { publicKey, algorithm, bytes } = signature;
  let data = signedData(signature, message);
  try {
    switch (publicKey.type) {
      case 'ssh-ed25519':
      case 'sk-ssh-ed25519@openssh.com':
        if (algorithm !== publicKey.type) throw new SshFormatError(SIGNATURE_MESSAGES.keyType);
        if (signature.sk) {
          if (!(signature.sk.flags & SK_USER_PRESENT)) return false;
          data = skData(signature, data);
        }
        return bytes.length === 64 && verify(null, data, publicKey.key, bytes);
      case 'ssh-rsa': {
        const hash = { 'rsa-sha2-256': 'sha256', 'rsa-sha2-512': 'sha512' }[algorithm];
        if (!hash) throw new SshFormatError(SIGNATURE_MESSAGES.keyType);
        return verify(hash, data, publicKey.key, bytes);
      }
      default: {
        if (algorithm !== publicKey.type) throw new SshFormatError(SIGNATURE_MESSAGES.keyType);
        const curve = CURVES[publicKey.curve!];
        const raw = p1363(bytes, curve.size);
        if (!raw) return false;
        if (signature.sk) {
          if (!(signature.sk.flags & SK_USER_PRESENT)) return false;
          data = skData(signature, data);
        }
        return verify(curve.hash, data, { key: publicKey.key, dsaEncoding: 'ieee-p1363' }, raw);
      }
    }
  } catch (error) {
    if (error instanceof SshFormatError) throw error;
    return false;
  }
}
