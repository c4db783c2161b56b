/** Session handle and attachment helpers. */

import type { Attachment, SessionHandle, SessionInfo } from './generated/types.gen.js';

/**
 * The handle `{id, revision}` of a session: exactly the two fields a session run sends.
 *
 *     const result = await client.run({ provider, model, input, session: handle(info) });
 *     info = result.session; // the next revision
 */
export function handle(session: Pick<SessionInfo, 'id' | 'revision'>): SessionHandle {
  return { id: session.id, revision: session.revision };
}

/**
 * A file for a run's `attachments`, `content` base64-encoded (text as UTF-8); which media types an
 * instance takes is in discovery's `attachmentMediaTypes`.
 *
 *     await client.run({ provider, model, input, attachments: [attachment('notes.txt', 'text/plain', await readFile('notes.txt'))] });
 */
export function attachment(name: string, mediaType: string, content: Uint8Array | string): Attachment {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { name, mediaType, data: btoa(binary) };
}
