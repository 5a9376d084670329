-- Part of the rooms service's schema.
--
-- Comments before the first marker belong to no part.

-- +migrate Up
-- the room's settings: always exactly one row
CREATE TABLE settings (
    id integer NOT NULL PRIMARY KEY,
    mode integer NOT NULL,      -- open, community, restricted
    language TEXT NOT NULL,     -- a language tag such as en or de

    CHECK (id == 0)
);

INSERT INTO settings (id, mode, language) VALUES (
    0,     -- the one row
    2,     -- community
    "en"   -- a double-quoted string, which SQLite reads as text here
);

-- +migrate Down
DROP TABLE settings;
