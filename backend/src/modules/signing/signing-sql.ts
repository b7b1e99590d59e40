/**
 * The signature of paste `alias` (a `threads` alias) as its page shows it, or null when it is unsigned:
 * `keyTitle` is the title of the author's key with the signature's fingerprint, null once they no longer
 * list it (so the page warns instead of showing VERIFIED). One lookup by primary key, one by a unique index.
 */
export const pasteSignatureJson = (alias: string): string =>
  `(SELECT json_build_object('fingerprint', s.fingerprint, 'keyType', s.key_type, 'keyTitle', k.title)
    FROM paste_signatures s
    LEFT JOIN ssh_keys k ON k.user_id = ${alias}.author_id AND k.fingerprint = s.fingerprint
    WHERE s.thread_id = ${alias}.id)`;

/** What pasteSignatureJson reads. */
export interface PasteSignatureRow {
  fingerprint: string;
  keyType: string;
  keyTitle: string | null;
}
