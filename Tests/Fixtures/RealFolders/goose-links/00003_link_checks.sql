-- +goose Up
-- +goose StatementBegin
-- What the nightly checker last saw at each link's target.
CREATE TABLE IF NOT EXISTS link_checks (
    link_id INTEGER PRIMARY KEY,
    checked_at TIMESTAMP,
    status_code INTEGER,
    -- set once the target answers 404 or 410
    gone_at TIMESTAMP,
    FOREIGN KEY (link_id) REFERENCES links(id) ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS idx_link_checks_gone_at ON link_checks(gone_at);

CREATE TRIGGER IF NOT EXISTS link_checks_new_link AFTER INSERT ON links
BEGIN
    INSERT INTO link_checks (link_id) VALUES (NEW.id);
END;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DROP TRIGGER IF EXISTS link_checks_new_link;
DROP INDEX IF EXISTS idx_link_checks_gone_at;
DROP TABLE IF EXISTS link_checks;
-- +goose StatementEnd
