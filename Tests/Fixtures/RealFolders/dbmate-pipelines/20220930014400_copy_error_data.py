# A data migration the project runs with its own Python runner; dbmate skips it.
import sqlite3


def up(connection: sqlite3.Connection) -> None:
    connection.execute("UPDATE runs SET error_json = NULL")


def down(connection: sqlite3.Connection) -> None:
    pass
