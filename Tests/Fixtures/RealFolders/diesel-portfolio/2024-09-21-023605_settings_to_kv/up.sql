-- Settings become key/value rows
CREATE TABLE "app_settings" (
    "setting_key" TEXT NOT NULL PRIMARY KEY,
    "setting_value" TEXT NOT NULL
);

INSERT INTO app_settings (setting_key, setting_value)
SELECT 'theme', theme FROM settings
UNION ALL
SELECT 'base_currency', base_currency FROM settings;

DROP TABLE settings;
