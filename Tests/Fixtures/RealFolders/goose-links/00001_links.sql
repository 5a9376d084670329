-- +goose Up
-- +goose StatementBegin
-- ----------------------------------------------------------------------------
-- links: one row per short link
-- ----------------------------------------------------------------------------
-- The application turns foreign keys on for its own connections:
--   PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS links (
    -- surrogate key
    id INTEGER PRIMARY KEY AUTOINCREMENT,

    -- the code in the short address, such as "k3x9"
    code VARCHAR(64) NOT NULL UNIQUE,

    target TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    owner VARCHAR(255) NOT NULL
);

-- UNIQUE on code already makes an index; these serve the list pages
CREATE INDEX IF NOT EXISTS idx_links_owner ON links(owner);
CREATE INDEX IF NOT EXISTS idx_links_created_at ON links(created_at);

-- ----------------------------------------------------------------------------
-- visits: one row per redirect served
-- ----------------------------------------------------------------------------
CREATE TABLE IF NOT EXISTS visits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    link_id INTEGER NOT NULL,
    visited_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- "Referer", as the HTTP header spells it
    referer TEXT,
    FOREIGN KEY (link_id) REFERENCES links(id) ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS idx_visits_link_id_visited_at ON visits(link_id, visited_at);
-- Left out until the reports need it:
-- CREATE INDEX IF NOT EXISTS idx_visits_referer ON visits(referer);
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TABLE IF EXISTS visits;
DROP TABLE IF EXISTS links;
-- +goose StatementEnd
