-- migrate:up

ALTER TABLE runs ADD COLUMN error TEXT;
ALTER TABLE runs ADD COLUMN error_json JSONB;

-- migrate:down

ALTER TABLE runs DROP COLUMN error_json;
ALTER TABLE runs DROP COLUMN error;
