-- Part of the rooms service's schema.
--
-- Comments before the first marker belong to no part.

-- +migrate Up

-- passwords: sign in by member, not by login name
-- ===============================================
-- SQLite's way to drop a column with a constraint: copy into a new table

DROP INDEX passwords_by_login;

CREATE TABLE passwords_new (
  id            INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  hash          BLOB    NOT NULL,
  member_id     INTEGER UNIQUE NOT NULL,

  FOREIGN KEY ( member_id ) REFERENCES members( "id" )  ON DELETE CASCADE
);

INSERT INTO passwords_new(id, hash, member_id)
SELECT id, hash, member_id
FROM passwords;

DROP TABLE passwords;
ALTER TABLE passwords_new RENAME TO passwords;

CREATE INDEX passwords_by_member ON passwords(member_id);

-- +migrate Down
DROP INDEX passwords_by_member;
DROP TABLE passwords;
