-- Back to one row of settings
CREATE TABLE "settings" (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    theme TEXT NOT NULL DEFAULT 'light',
    base_currency TEXT NOT NULL
);

INSERT INTO settings (theme, base_currency)
SELECT
    (SELECT setting_value FROM app_settings WHERE setting_key = 'theme'),
    (SELECT setting_value FROM app_settings WHERE setting_key = 'base_currency');

DROP TABLE "app_settings";
