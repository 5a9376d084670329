@testable import Strata

/// Folders whose files stress the reader: line ends, byte order marks, several sections,
/// options, lint directives, blank and comment lines, non-ASCII text, pairs, and the other
/// formats' markers. `ParserAgreementTests` holds what the reader made of each before it was
/// rewritten to parse and checksum in one pass; the two must agree byte for byte.
enum ParserAgreementCases {
  struct Folder {
    let files: [(name: String, bytes: [UInt8])]
    let format: MigrationFormat?
  }

  private static func file(_ name: String, _ text: String) -> (name: String, bytes: [UInt8]) {
    (name, Array(text.utf8))
  }

  private static let bom = "\u{FEFF}"

  static let folders: [Folder] = [
    // 0: dbmate files.
    Folder(
      files: [
        file(
          "0001_simple.sql",
          "-- migrate:up\nCREATE TABLE a (x);\n\n-- migrate:down\nDROP TABLE a;\n"
        ),
        file(
          "0002_crlf.sql",
          "-- migrate:up\r\nCREATE TABLE b (x);\r\n\r\n-- migrate:down\r\nDROP TABLE b;\r\n"
        ),
        file("0003_bom.sql", bom + "-- migrate:up\r\nCREATE TABLE c (x);\r\n-- migrate:down\r\n"),
        file(
          "0004_odd_returns.sql",
          "-- migrate:up\nSELECT 1;\r\r\nSELECT '\r';\n-- migrate:down\n"
        ),
        file(
          "0005_sections.sql",
          "-- header comment\n\n-- migrate:up\nCREATE TABLE d (x);\n-- migrate:down\nDROP TABLE d;\n"
            + "-- between\n-- migrate:up\nCREATE TABLE e (x);\n\n-- migrate:down\n\nDROP TABLE e;\n"
        ),
        file(
          "0006_options.sql",
          "-- migrate:up transaction:false\nVACUUM;\n-- migrate:down   transaction:false\t\nVACUUM;\n"
        ),
        file(
          "0007_directives.sql",
          "-- migrate:up\n-- strata:allow drop-table\nDROP TABLE f;\n  --\tstrata:allow x, y  \n"
            + "SELECT 'strata:allow';\n-- strata:allowed is not one\n-- migrate:down\n"
            + "-- strata:allow z\nSELECT 2;\n"
        ),
        file(
          "0008_blank_edges.sql",
          "\n\n-- migrate:up\n\n\t  \n  SELECT 3;  \n\n\n-- migrate:down\n"
        ),
        file("0009_up_only.sql", "-- migrate:up\nCREATE TABLE g (x);\n"),
        file(
          "0010_unicode.sql",
          "-- migrate:up\nINSERT INTO t VALUES ('é ☃ 🙂 e\u{301}');\n-- migrate:down\n-- ü\n"
        ),
        file("0011_plain.sql", "CREATE TABLE h (x);\r\n-- just a comment\r\n"),
        file("0012_directive_crlf.sql", "-- migrate:up\r\n-- strata:allow a\r\nSELECT 4;\r\n"),
        file(
          "0013_empty_up.sql",
          "-- migrate:up\n-- nothing yet, on purpose\n-- migrate:down\nSELECT 5;\n"
        ),
        file(
          "0014_three_sections.sql",
          "-- migrate:up\nA1;\n-- migrate:down\nD1;\n-- migrate:up\nA2;\n-- migrate:down\nD2;\n"
            + "-- migrate:up\nA3;\n-- migrate:down\nD3;"
        ),
        file("0015_no_newline.sql", "-- migrate:up\nSELECT 6;"),
        file(
          "0016_indented_marker.sql",
          "  \t--\tmigrate:up\nSELECT 7;\n --migrate:down\nSELECT 8;\n"
        ),
        file("0017_only_spaces.sql", "   \n\t\n"),
        file(
          "0018_section_without_down.sql",
          "-- migrate:up\nA;\n-- migrate:down\nB;\n-- migrate:up\nC;\n"
        ),
      ],
      format: nil
    ),
    // 1: golang-migrate pairs.
    Folder(
      files: [
        file("0001_a.up.sql", bom + "CREATE TABLE a (x);\r\n"),
        file("0001_a.down.sql", "DROP TABLE a;\r\n"),
        file("0002_b.up.sql", "\n-- strata:allow drop-table\nDROP TABLE z;\n\n"),
        file("0003_c.up.sql", "-- Up migration\nSELECT 1;"),
        file("0003_c.down.sql", "-- Down migration\n"),
        file("0004_d.UP.SQL", "SELECT 2;\n"),
      ],
      format: nil
    ),
    // 2: sqlx files.
    Folder(
      files: [
        file("0001_a.sql", "-- no-transaction\nVACUUM;\n"),
        file("0002_b.sql", "CREATE TABLE b (x);\r\n"),
        file("0003_c.up.sql", "-- no-transaction\r\nSELECT 1;\r\n"),
        file("0003_c.down.sql", "SELECT 2;\n"),
      ],
      format: .sqlx
    ),
    // 3: goose files.
    Folder(
      files: [
        file(
          "0001_a.sql",
          "-- +goose Up\n-- +goose StatementBegin\nCREATE TABLE a (x);\n-- +goose StatementEnd\n"
            + "-- +goose Down\nDROP TABLE a;\n"
        ),
        file("0002_b.sql", "-- +goose Up\r\n-- +goose NO TRANSACTION\r\nVACUUM;\r\n"),
        file("0003_c.sql", "-- +goose Up\nSELECT 3;\n-- +goose Down\r\n"),
      ],
      format: nil
    ),
    // 4: sql-migrate files.
    Folder(
      files: [
        file("1_a.sql", "-- +migrate Up\nCREATE TABLE a (x);\n-- +migrate Down\nDROP TABLE a;\n"),
        file("2_b.sql", "-- +migrate Up notransaction\nVACUUM;\n"),
      ],
      format: nil
    ),
    // 5: an iOS bundle's bare names.
    Folder(
      files: [
        file("1.sql", "CREATE TABLE a (x);\n"),
        file("2.sql", bom + "SELECT 2;\r\n"),
      ],
      format: nil
    ),
    // 6: version ordering and names (leading zeros, upper-case suffixes, non-ASCII names).
    Folder(
      files: [
        file("10_ten.sql", "SELECT 10;"),
        file("009_nine.SQL", "SELECT 9;"),
        file("0000000000000000000011_eleven.sql", "SELECT 11;"),
        file("12_é.sql", "SELECT 12;"),
        file("13_a.b.sql", "SELECT 13;"),
        file("README.md", "not a migration"),
        file(".hidden.sql", "not read"),
      ],
      format: nil
    ),
    // 7 to 12: what the reader refuses, with the file and line it names.
    Folder(files: [file("1_a.sql", "-- +goose Up\nA;\n"), file("2_b.sql", "B;\n")], format: nil),
    Folder(files: [file("1_a.sql", "SELECT 0;\n-- migrate:up\nA;\n")], format: nil),
    Folder(files: [file("1_a.sql", "-- migrate:up transaction:maybe\nA;\n")], format: nil),
    Folder(files: [file("1_a.sql", "-- migrate:up\nA;\n-- migrate :down\nB;\n")], format: nil),
    Folder(files: [file("1_a.up.sql", "A;\r\n-- migrate:down\r\nB;\r\n")], format: nil),
    Folder(
      files: [file("1_a.sql", "-- migrate:up\n\u{2003}-- migrate:down\nB;\n-- migrate:down\n")],
      format: nil
    ),
  ]
}
