-- Part of the rooms service's schema.
--
-- Comments before the first marker belong to no part.

-- +migrate Up
-- people who joined with an invite
CREATE TABLE members (
  id            INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  role          INTEGER NOT NULL, -- member, moderator or admin
  pub_key       TEXT    NOT NULL UNIQUE,

  CHECK(role > 0)
);
CREATE INDEX members_by_key ON members(pub_key);

-- password sign-in for members who cannot use their key
CREATE TABLE passwords (
  id            INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  login         TEXT    NOT NULL UNIQUE,
  hash          BLOB    NOT NULL,
  member_id     INTEGER NOT NULL,

  FOREIGN KEY ( member_id ) REFERENCES members( "id" )  ON DELETE CASCADE
);
CREATE INDEX passwords_by_login ON passwords(login);

-- single-use invitations
CREATE TABLE invites (
  id               INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  token            TEXT UNIQUE NOT NULL,
  created_by       INTEGER NOT NULL,
  active boolean   NOT NULL DEFAULT TRUE,

  FOREIGN KEY ( created_by ) REFERENCES members( "id" )  ON DELETE CASCADE
);
CREATE UNIQUE INDEX invites_active_tokens ON invites(token) WHERE active=TRUE;

-- +migrate Down
DROP TABLE members;

DROP INDEX passwords_by_login;
DROP TABLE passwords;

DROP INDEX invites_active_tokens;
DROP TABLE invites;
