-- Your SQL goes here

-- Cash activities keep their value in a new amount column
ALTER TABLE activities ADD COLUMN amount TEXT DEFAULT NULL;

UPDATE activities
SET
    amount = unit_price * quantity,
    quantity = 0,
    unit_price = 0
WHERE kind IN ('DIVIDEND', 'INTEREST', 'DEPOSIT', 'WITHDRAWAL')
   OR (kind = 'TRANSFER_IN' AND asset_id LIKE '$CASH-%');

-- Numbers become text to keep their decimals: SQLite rebuilds the table
PRAGMA foreign_keys = OFF;

CREATE TABLE "activities_new" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "asset_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "quantity" TEXT NOT NULL,
    "unit_price" TEXT NOT NULL,
    "fee" TEXT NOT NULL DEFAULT '0',
    "amount" TEXT,
    CONSTRAINT "activity_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

INSERT INTO activities_new SELECT id, account_id, asset_id, kind, CAST(quantity AS TEXT),
    CAST(unit_price AS TEXT), CAST(fee AS TEXT), amount FROM activities;

DROP TABLE activities;
ALTER TABLE activities_new RENAME TO activities;
CREATE INDEX "activities_account_id_idx" ON "activities"("account_id");

PRAGMA foreign_keys = ON;
