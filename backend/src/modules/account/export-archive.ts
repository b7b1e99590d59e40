import type { Readable } from 'node:stream';
import { sniffImageType } from '../../infra/storage/object-keys.js';
import yazl from 'yazl';

/** One JSON file of the archive: its name and what it holds. */
export interface ArchiveFile {
  name: string;
  data: unknown;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The avatar's file name in the archive, by the type its bytes tell (`avatar.png`), or null for no image. */
export function avatarFileName(bytes: Buffer): string | null {
  const type = sniffImageType(bytes.subarray(0, 16));
  return type ? `avatar.${EXTENSIONS[type] ?? 'img'}` : null;
}

/** Reads a stream whole (an avatar: at most 10 MB). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * A zip of `files` as pretty JSON (one file each, UTF-8), plus `extras` as they are (the avatar), all
 * under one folder named `root` so unpacking it leaves one folder.
 */
export function buildArchive(
  root: string,
  files: readonly ArchiveFile[],
  extras: ReadonlyArray<{ name: string; bytes: Buffer }> = [],
  at = new Date(),
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of files) {
    zip.addBuffer(Buffer.from(`${JSON.stringify(file.data, null, 2)}\n`, 'utf8'), `${root}/${file.name}`, {
      mtime: at,
    });
  }
  for (const extra of extras)
    zip.addBuffer(extra.bytes, `${root}/${extra.name}`, { mtime: at, compress: false });
  zip.end();
  return readAll(zip.outputStream as unknown as Readable);
}
