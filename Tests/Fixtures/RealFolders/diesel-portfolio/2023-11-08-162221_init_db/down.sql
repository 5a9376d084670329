-- This file should undo anything in `up.sql`

DROP TABLE IF EXISTS goals;
DROP TABLE IF EXISTS settings;
DROP TABLE IF EXISTS activities;
DROP TABLE IF EXISTS accounts;
DROP TABLE IF EXISTS platforms;
