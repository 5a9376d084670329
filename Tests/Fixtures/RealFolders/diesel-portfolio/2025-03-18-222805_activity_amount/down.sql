-- This file should undo anything in `up.sql`
PRAGMA foreign_keys = OFF;

CREATE TABLE "activities_old" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "asset_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "quantity" NUMERIC NOT NULL,
    "unit_price" NUMERIC NOT NULL,
    "fee" NUMERIC NOT NULL DEFAULT 0,
    CONSTRAINT "activity_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

INSERT INTO activities_old SELECT id, account_id, asset_id, kind, quantity, unit_price, fee
FROM activities;

DROP TABLE activities;
ALTER TABLE activities_old RENAME TO activities;
CREATE INDEX "activities_account_id_idx" ON "activities"("account_id");

PRAGMA foreign_keys = ON;
