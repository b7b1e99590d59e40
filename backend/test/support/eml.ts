/** An RFC 822 message split into its headers (names lowercased, folded lines joined) and its body. */
export interface ParsedMessage {
  headers: Map<string, string>;
  /** Decoded when the transfer encoding is quoted-printable or base64. */
  body: string;
}

/** Just enough of RFC 822 / MIME for single-part messages in tests (there is no mail parser installed). */
export function parseMessage(raw: string): ParsedMessage {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('not an RFC 822 message: no blank line after the headers');
  const headers = new Map<string, string>();
  for (const line of raw
    .slice(0, end)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`not a header line: ${JSON.stringify(line)}`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = raw.slice(end + 4);
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    body = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { headers, body };
}
