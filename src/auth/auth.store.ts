import type { Role } from '../access/principal.js';
import type { Plan } from '../plans/plans.js';
import type { Queryable } from '../platform/postgres.js';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  /** The subject of the user's identity tokens (never shown by the API). */
  token_subject: string;
}

export interface MembershipRow {
  workspace_id: string;
  role: Role;
  email: string;
}

export interface TokenMembershipRow {
  user_id: string;
  email: string;
  /** Null when the user is no longer a member of the token's workspace. */
  role: Role | null;
  /** The token was signed out (revoked_tokens). */
  revoked: boolean;
}

export interface WorkspaceMembershipRow {
  id: string;
  name: string;
  /** The workspaces table allows only the plans of the capability table (CHECK constraint). */
  plan: Plan;
  role: Role;
}

/** Users, their memberships and the personal workspace made at first sign-in. */
export interface AuthStore {
  findUserByEmail(email: string, q?: Queryable): Promise<UserRow | undefined>;
  /** Inserts the user unless the e-mail exists (a concurrent first sign-in); undefined in that case. */
  insertUser(q: Queryable, email: string, passwordHash: string): Promise<UserRow | undefined>;
  /** The workspace a sign-in lands in: the user's own (oldest owned), else the oldest membership. */
  defaultWorkspace(userId: string): Promise<string | undefined>;
  membership(userId: string, workspaceId: string): Promise<MembershipRow | undefined>;
  /**
   * The user an identity token's subject names (none: no such token was issued, or the user signed out
   * everywhere since), its role there, and whether the token itself was signed out: one query, the only
   * one a request with a token costs. A workspace id that is not a UUID fails with the invalid-text code
   * (22P02), as Postgres answers it.
   */
  membershipByTokenSubject(
    subject: string,
    workspaceId: string,
    tokenId: string,
  ): Promise<TokenMembershipRow | undefined>;
  /** Ends one token until it would have expired (and clears revocations of tokens expired since). */
  revokeToken(q: Queryable, tokenId: string, expiresAt: Date): Promise<void>;
  /** Gives the user a new token subject: every token issued before names one no user has. */
  rotateTokenSubject(q: Queryable, userId: string): Promise<void>;
  tokenSubject(userId: string): Promise<string | undefined>;
  /** Replaces the user's password hash (a change or a reset; the caller ends the user's tokens). */
  setPassword(q: Queryable, userId: string, passwordHash: string): Promise<void>;
  /** Oldest workspace first. */
  workspacesOf(userId: string): Promise<WorkspaceMembershipRow[]>;
  userById(userId: string): Promise<{ id: string; email: string } | undefined>;
}
