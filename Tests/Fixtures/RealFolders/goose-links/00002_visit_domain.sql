-- +goose Up
-- +goose StatementBegin
-- The referer's host name, kept apart so reports can group by site
ALTER TABLE visits ADD COLUMN referer_host VARCHAR(255);

CREATE INDEX IF NOT EXISTS idx_visits_referer_host ON visits(referer_host);
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
-- the index goes first, then the column
DROP INDEX IF EXISTS idx_visits_referer_host;

ALTER TABLE visits DROP COLUMN referer_host;
-- +goose StatementEnd
