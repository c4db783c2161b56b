/** Session handle helpers. */

import type { SessionHandle, SessionInfo } from './generated/types.gen.js';

/**
 * The handle `{id, revision}` of a session: exactly the two fields a session run sends.
 *
 *     const result = await client.run({ provider, model, input, session: handle(info) });
 *     info = result.session!; // the next revision
 */
export function handle(session: Pick<SessionInfo, 'id' | 'revision'>): SessionHandle {
  return { id: session.id, revision: session.revision };
}
