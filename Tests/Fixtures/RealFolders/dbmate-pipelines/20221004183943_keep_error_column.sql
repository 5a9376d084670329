-- migrate:up

-- TODO: drop the old column once every database can
-- ALTER TABLE runs DROP COLUMN error;

-- migrate:down

ALTER TABLE runs ADD COLUMN error TEXT;
