-- Security audit HIGH (ended logins came back): a request in flight across "log out everywhere", a password change or
-- a promotion to admin wrote its cookie session back (connect-pg-simple's set is an upsert). users.session_epoch is the
-- login generation: endAllSessions and promoteToAdmin raise it; a cookie session (sess.epoch) and a bearer token
-- (auth_tokens.session_epoch) record it at login and are refused once it is older (auth/session.ts). Every existing
-- user starts at 0 and sessions and tokens from before this migration count as 0, so nobody is signed out by it.
-- Only adds columns (one with DEFAULT 0): older releases run on it unchanged.
ALTER TABLE "auth_tokens" ADD COLUMN "session_epoch" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_epoch" integer DEFAULT 0 NOT NULL;
