CREATE TABLE z(x)

-- the end