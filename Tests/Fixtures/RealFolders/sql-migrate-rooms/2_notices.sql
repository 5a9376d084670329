-- Part of the rooms service's schema.
--
-- Comments before the first marker belong to no part.

-- +migrate Up
CREATE TABLE pins (
  id integer NOT NULL PRIMARY KEY,
  name text NOT NULL UNIQUE
);

CREATE TABLE notices (
  id   integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  title text NOT NULL,
  content text NOT NULL,
  language text NOT NULL
);

-- which notice shows where
CREATE TABLE pin_notices (
  notice_id integer NOT NULL,
  pin_id integer NOT NULL,

  PRIMARY KEY (notice_id, pin_id),

  FOREIGN KEY ( notice_id ) REFERENCES notices( "id" ),
  FOREIGN KEY ( pin_id ) REFERENCES pins( "id" )
);

INSERT INTO pins (name) VALUES
('Welcome'),
('HouseRules');

INSERT INTO notices (title, content, language)  VALUES
('Welcome', 'Say hello -- this is text, not a comment', 'en-GB'),
('House rules', 'Please:
* be kind
* be patient; we all are
* ask first
', 'en-GB'),
('Willkommen', 'Hallo!', 'de-DE');

INSERT INTO pin_notices (notice_id, pin_id) VALUES
(1, 1),
(2, 2),
(3, 1);

-- +migrate Down
DROP TABLE notices;
DROP TABLE pins;
DROP TABLE pin_notices;
