import type { PasswordResetsStore } from '../password-reset/password-resets.store.js';
import type { Queryable } from '../platform/postgres.js';
import type { AuthStore } from './auth.store.js';

export interface PasswordStores {
  auth: Pick<AuthStore, 'setPassword' | 'rotateTokenSubject'>;
  passwordResets: Pick<PasswordResetsStore, 'voidOpen'>;
}

/**
 * A new password hash for the user, inside the caller's transaction, and every identity token of the user
 * ended with it (a new token subject, as "sign out everywhere" does): no session outlives the old password.
 * Open reset links are voided too. Used by a change, a reset by link and the operator's command alike.
 */
export async function replacePassword(
  stores: PasswordStores,
  tx: Queryable,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await stores.auth.setPassword(tx, userId, passwordHash);
  await stores.auth.rotateTokenSubject(tx, userId);
  await stores.passwordResets.voidOpen(tx, userId);
}
