import { createHash, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { SIGNATURE_MESSAGES, SSH_KEY_MESSAGES } from '@termpaste/contracts';
import { generateKey, removeKeyFolders, sign, type TestKey } from '../../../test/support/ssh-keygen.js';
import { fingerprintOf, parseKeyLine, parseSignature, SshFormatError, verifySignature } from './sshsig.js';

/** The error text `run` throws (a SshFormatError), or 'no error'. */
function refusal(run: () => unknown): string {
  try {
    run();
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(SshFormatError);
    return (error as Error).message;
  }
}

const check = (armoured: string, content: string | Buffer): boolean =>
  verifySignature(parseSignature(armoured), Buffer.from(content));

describe('SSH keys and signatures (real ssh-keygen output)', () => {
  const keys: Record<string, TestKey> = {};
  beforeAll(() => {
    keys.ed25519 = generateKey('ed25519');
    keys.rsa = generateKey('rsa');
    keys.p256 = generateKey('ecdsa', 256);
    keys.p384 = generateKey('ecdsa', 384);
    keys.p521 = generateKey('ecdsa', 521);
  });
  afterAll(removeKeyFolders);

  it.each(['ed25519', 'rsa', 'p256', 'p384', 'p521'])('reads a %s key line and its fingerprint', (name) => {
    const key = keys[name]!;
    const line = parseKeyLine(key.publicLine);
    expect(line.fingerprint).toBe(key.fingerprint);
    expect(line.comment).toBe('me@test');
    expect(key.publicLine.startsWith(line.line)).toBe(true);
  });

  it.each(['ed25519', 'rsa', 'p256', 'p384', 'p521'])(
    'verifies a %s signature of the exact bytes',
    (name) => {
      const key = keys[name]!;
      const content = 'echo "hello"\r\n  indented\ttabs ✓\n\n';
      const armoured = sign(key, content);
      const parsed = parseSignature(armoured);
      expect(parsed.fingerprint).toBe(key.fingerprint);
      expect(check(armoured, content)).toBe(true);
      expect(check(armoured, content.replace('hello', 'hellO'))).toBe(false);
      expect(check(armoured, content.trimEnd())).toBe(false);
    },
  );

  it('refuses a signature made for another namespace', () => {
    const armoured = sign(keys.ed25519!, 'x', 'file');
    expect(refusal(() => parseSignature(armoured))).toBe(SIGNATURE_MESSAGES.namespace('file'));
  });

  it('refuses what is not an armoured SSH signature', () => {
    expect(refusal(() => parseSignature('hello'))).toBe(SIGNATURE_MESSAGES.malformed);
    expect(
      refusal(() => parseSignature('-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----')),
    ).toBe(SIGNATURE_MESSAGES.malformed);
    const armoured = sign(keys.ed25519!, 'x');
    // A cut body: the blob ends too early.
    const lines = armoured.trim().split('\n');
    const cut = [...lines.slice(0, 2), lines.at(-1)!].join('\n');
    expect(refusal(() => parseSignature(cut))).toBe(SIGNATURE_MESSAGES.malformed);
  });

  it('refuses a private key pasted as a public one, without echoing it', () => {
    const text = refusal(() => parseKeyLine(keys.ed25519!.privateText));
    expect(text).toBe(SSH_KEY_MESSAGES.privateKey);
    expect(refusal(() => parseKeyLine(keys.rsa!.privateText))).toBe(SSH_KEY_MESSAGES.privateKey);
  });

  it('says what is wrong with a bad key line', () => {
    const [type, data] = keys.ed25519!.publicLine.split(' ') as [string, string];
    expect(refusal(() => parseKeyLine(''))).toBe(SSH_KEY_MESSAGES.keyRequired);
    expect(refusal(() => parseKeyLine(`ssh-dss ${data}`))).toBe(SSH_KEY_MESSAGES.unknownType);
    expect(refusal(() => parseKeyLine(`${type} not*base64`))).toBe(SSH_KEY_MESSAGES.notBase64);
    expect(refusal(() => parseKeyLine(`${type} ${data.slice(0, 40)}`))).toBe(SSH_KEY_MESSAGES.malformed);
    expect(refusal(() => parseKeyLine(`ssh-rsa ${data}`))).toBe(
      SSH_KEY_MESSAGES.typeMismatch('ssh-rsa', 'ssh-ed25519'),
    );
    expect(refusal(() => parseKeyLine(`${keys.ed25519!.publicLine}\n${keys.rsa!.publicLine}`))).toBe(
      SSH_KEY_MESSAGES.oneKey,
    );
    const small = generateKey('rsa', 1024);
    expect(refusal(() => parseKeyLine(small.publicLine))).toBe(SSH_KEY_MESSAGES.rsaTooSmall);
  });

  it('verifies a security key (sk-ssh-ed25519) signature, touch required', () => {
    // No security key here: its signature is built as PROTOCOL.u2f says, with a software key.
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
    const str = (value: Buffer | string) => {
      const bytes = Buffer.from(value as string);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return Buffer.concat([length, bytes]);
    };
    const type = 'sk-ssh-ed25519@openssh.com';
    const blob = Buffer.concat([str(type), str(raw), str('ssh:')]);
    const line = parseKeyLine(`${type} ${blob.toString('base64')} yubikey`);
    expect(line.fingerprint).toBe(fingerprintOf(blob));
    const message = Buffer.from('signed by touch\n');
    const armour = (flags: number) => {
      const data = Buffer.concat([
        Buffer.from('SSHSIG'),
        str('termpaste'),
        str(''),
        str('sha512'),
        str(createHash('sha512').update(message).digest()),
      ]);
      const counter = Buffer.from([0, 0, 0, 7]);
      const skData = Buffer.concat([
        createHash('sha256').update('ssh:').digest(),
        Buffer.from([flags]),
        counter,
        createHash('sha256').update(data).digest(),
      ]);
      const inner = Buffer.concat([
        str(type),
        str(cryptoSign(null, skData, privateKey)),
        Buffer.from([flags]),
        counter,
      ]);
      const version = Buffer.from([0, 0, 0, 1]);
      const sig = Buffer.concat([
        Buffer.from('SSHSIG'),
        version,
        str(blob),
        str('termpaste'),
        str(''),
        str('sha512'),
        str(inner),
      ]);
      return `-----BEGIN SSH SIGNATURE-----\n${sig.toString('base64').replace(/.{70}/g, '$&\n')}\n-----END SSH SIGNATURE-----\n`;
    };
    expect(check(armour(0x01), message)).toBe(true);
    expect(check(armour(0x01), 'other')).toBe(false);
    expect(check(armour(0x00), message)).toBe(false);
  });
});
