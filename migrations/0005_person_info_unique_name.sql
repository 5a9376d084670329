-- Gives person_info a key, by SQLite's 12-step table rebuild
-- (https://www.sqlite.org/lang_altertable.html#otheralter). strata turns foreign keys off
-- before the transaction and runs PRAGMA foreign_key_check before COMMIT, so the rebuild
-- cannot cascade into child rows. Duplicate names make this migration fail (and change
-- nothing) instead of silently dropping rows.
-- migrate:up
CREATE TABLE person_info_new (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  age  INTEGER CHECK (age IS NULL OR age >= 0)
);
INSERT INTO person_info_new (id, name, age) SELECT rowid, name, age FROM person_info;
DROP TABLE person_info;
ALTER TABLE person_info_new RENAME TO person_info;

-- migrate:down
CREATE TABLE person_info_old (
  name TEXT NOT NULL,
  age  INTEGER
);
INSERT INTO person_info_old (rowid, name, age) SELECT id, name, age FROM person_info;
DROP TABLE person_info;
ALTER TABLE person_info_old RENAME TO person_info;
