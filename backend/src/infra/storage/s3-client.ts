import { S3Client } from '@aws-sdk/client-s3';

/** What an S3 client needs: the uploads' bucket settings and the backups' share these fields. */
export interface S3ClientSettings {
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

/** One way to reach S3 (or MinIO, R2…) for the avatars and the backups alike. */
export function s3Client(settings: S3ClientSettings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: an avatar's calls (HEAD, a ranged GET, a copy, a delete)
    // send no body worth one, and a backup's archive carries its own checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
