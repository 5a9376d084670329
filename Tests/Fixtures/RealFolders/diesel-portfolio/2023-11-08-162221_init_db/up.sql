-- diesel setup
-- diesel migration generate
-- diesel migration run


CREATE TABLE "platforms" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT,
    "url" TEXT NOT NULL
);

CREATE TABLE "accounts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'SECURITIES',
    "group" TEXT,
    "currency" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "platform_id" TEXT,
    CONSTRAINT "account_platform_id_fkey" FOREIGN KEY ("platform_id") REFERENCES "platforms" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "activities" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "asset_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "quantity" NUMERIC NOT NULL,
    "unit_price" NUMERIC NOT NULL,
    "fee" NUMERIC NOT NULL DEFAULT 0,
    CONSTRAINT "activity_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "activities_account_id_idx" ON "activities"("account_id");

CREATE TABLE "settings" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "theme" TEXT NOT NULL DEFAULT 'light',
    "base_currency" TEXT NOT NULL
);

INSERT INTO "settings" ("theme", "base_currency") VALUES ('light', 'USD');

INSERT INTO "platforms" ("id", "name", "url") VALUES
('BROKER_A', 'Broker A', 'https://broker-a.example'),
('BANK_B', 'Bank B', 'https://bank-b.example');
