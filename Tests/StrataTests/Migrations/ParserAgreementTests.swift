import Testing

@testable import Strata

/// What the reader made of `ParserAgreementCases`' folders before it parsed and checksummed
/// each file in one pass over its bytes: every part's SQL, first line and transaction, every
/// checksum (history rows in users' databases hold them), every refusal's words. The one-pass
/// reader must agree byte for byte.
@Suite struct ParserAgreementTests {
  typealias Part = (sql: String, firstLine: Int, isTransactional: Bool, file: String)
  typealias Expected = (
    version: String, name: String, up: Part, down: Part?, checksum: String
  )

  static let expected: [Int: (format: String, migrations: [Expected])] = [
    0: (
      "dbmate",
      [
        (
          "1", "simple", ("CREATE TABLE a (x);\n", 2, true, "m/0001_simple.sql"),
          ("DROP TABLE a;\n", 5, true, "m/0001_simple.sql"),
          "5d4dfde3b9ddf0a46b24120bb95e8ec12aaf6782f4c94912c492152df44fac27"
        ),
        (
          "2", "crlf", ("CREATE TABLE b (x);\n", 2, true, "m/0002_crlf.sql"),
          ("DROP TABLE b;\n", 5, true, "m/0002_crlf.sql"),
          "b1fef1ac22eb19a04372fc5939ae4da7b44217237941135885fc5e349ffb7263"
        ),
        (
          "3", "bom", ("CREATE TABLE c (x);", 2, true, "m/0003_bom.sql"),
          ("", 4, true, "m/0003_bom.sql"),
          "b3e0a064dbae177108701ac4d13f63a818aba08d1ef73fc20ce82ba5e084a2ba"
        ),
        (
          "4", "odd_returns", ("SELECT 1;\r\nSELECT '\r';", 2, true, "m/0004_odd_returns.sql"),
          ("", 5, true, "m/0004_odd_returns.sql"),
          "e4f1108597e99f1b0969ec82599b0d149a14ef97ec0dd400e5d448c04d62fdbb"
        ),
        (
          "5", "sections",
          ("CREATE TABLE d (x);\n\n\n\n\nCREATE TABLE e (x);\n", 4, true, "m/0005_sections.sql"),
          ("\nDROP TABLE e;\n\nDROP TABLE d;\n-- between", 12, true, "m/0005_sections.sql"),
          "b606de2dd3097f77e6208bc0379f5ae10b71f37138917ad9366c850bbb1c51d1"
        ),
        (
          "6", "options", ("VACUUM;", 2, false, "m/0006_options.sql"),
          ("VACUUM;\n", 4, false, "m/0006_options.sql"),
          "3dbd367da0e6f97fbc4b63c236cc6420546ccd9a4a9943e5831a6c08ea6168ff"
        ),
        (
          "7", "directives",
          (
            "-- strata:allow drop-table\nDROP TABLE f;\n  --\tstrata:allow x, y  \nSELECT "
              + "'strata:allow';\n-- strata:allowed is not one",
            2, true, "m/0007_directives.sql"
          ),
          ("-- strata:allow z\nSELECT 2;\n", 8, true, "m/0007_directives.sql"),
          "83bb46b2ec0213410f63d6a50885383306ba56f5e542011c2462244688ad8762"
        ),
        (
          "8", "blank_edges", ("\n\t  \n  SELECT 3;  \n\n", 4, true, "m/0008_blank_edges.sql"),
          ("", 10, true, "m/0008_blank_edges.sql"),
          "6d51e258cb323b98bf07dd6658c78c08adaf998a8e717f85e02d9c7ce869608b"
        ),
        (
          "9", "up_only", ("CREATE TABLE g (x);\n", 2, true, "m/0009_up_only.sql"),
          nil,
          "e67ecfa1e077fe9269b1891f55ee8b5302a7408ee8dc77ff56e2cf0216786884"
        ),
        (
          "10", "unicode",
          (
            "INSERT INTO t VALUES ('\u{e9} \u{2603} \u{1f642} e\u{301}');", 2, true,
            "m/0010_unicode.sql"
          ),
          ("-- \u{fc}\n", 4, true, "m/0010_unicode.sql"),
          "825c216f7ab7d4c1180650ddd6712aaaad40fd19226c2f7e625e5a76c701e9be"
        ),
        (
          "11", "plain", ("CREATE TABLE h (x);\n-- just a comment\n", 1, true, "m/0011_plain.sql"),
          nil,
          "430818f6add86a6df7fc8014ed8c8eaeb3834598307f5b6485c8414a8e1e38c3"
        ),
        (
          "12", "directive_crlf",
          ("-- strata:allow a\nSELECT 4;\n", 2, true, "m/0012_directive_crlf.sql"),
          nil,
          "3f55c55f7360881c3fd6ecd9e05c47b4d461a8a0579bddcba6fccbb6105ff66e"
        ),
        (
          "13", "empty_up", ("-- nothing yet, on purpose", 2, true, "m/0013_empty_up.sql"),
          ("SELECT 5;\n", 4, true, "m/0013_empty_up.sql"),
          "cea7817fbdaa963513bf005429e654c5b68b2f5b79230533e305e7e0b4fe5955"
        ),
        (
          "14", "three_sections",
          ("A1;\n\n\n\nA2;\n\n\n\nA3;", 2, true, "m/0014_three_sections.sql"),
          ("D3;\nD2;\nD1;", 12, true, "m/0014_three_sections.sql"),
          "cfed6bc3078f239325230a14e39cce948bf22d3ecd133f031739bae00fdc5dfc"
        ),
        (
          "15", "no_newline", ("SELECT 6;", 2, true, "m/0015_no_newline.sql"),
          nil,
          "664d691f1561d639bbcb21db95e4098505cfb5a5f945d32f72571da388fe1034"
        ),
        (
          "16", "indented_marker", ("SELECT 7;", 2, true, "m/0016_indented_marker.sql"),
          ("SELECT 8;\n", 4, true, "m/0016_indented_marker.sql"),
          "e934ec2103e83133943fba0a071c455ebefe013ee578937b0d489e83b5d155a0"
        ),
        (
          "17", "only_spaces", ("   \n\t\n", 1, true, "m/0017_only_spaces.sql"),
          nil,
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        ),
        (
          "18", "section_without_down",
          ("A;\n\n\n\nC;\n", 2, true, "m/0018_section_without_down.sql"),
          nil,
          "8d677f557df4d961491e762e4dd6d8f812a193a7f2ac7cfbbbb387a4cb4e2baa"
        ),
      ]
    ),
    1: (
      "golang-migrate",
      [
        (
          "1", "a", ("CREATE TABLE a (x);\n", 1, true, "m/0001_a.up.sql"),
          ("DROP TABLE a;\n", 1, true, "m/0001_a.down.sql"),
          "5d4dfde3b9ddf0a46b24120bb95e8ec12aaf6782f4c94912c492152df44fac27"
        ),
        (
          "2", "b", ("\n-- strata:allow drop-table\nDROP TABLE z;\n\n", 1, true, "m/0002_b.up.sql"),
          nil,
          "19869f2afaf8a47f6c1e406879ba8f05ba63455c7450bc4ad1af5d87e0704495"
        ),
        (
          "3", "c", ("-- Up migration\nSELECT 1;", 1, true, "m/0003_c.up.sql"),
          ("-- Down migration\n", 1, true, "m/0003_c.down.sql"),
          "115fbe509a14c57ac189a153c15cc0ac5044f011cc27ee3c47ed42de327044aa"
        ),
        (
          "4", "d", ("SELECT 2;\n", 1, true, "m/0004_d.UP.SQL"),
          nil,
          "8e7003d62f9d8cbd28da2f243bb0d215bfd4622c716be09be89a8764d9f4c7cb"
        ),
      ]
    ),
    2: (
      "sqlx",
      [
        (
          "1", "a", ("-- no-transaction\nVACUUM;\n", 1, false, "m/0001_a.sql"),
          nil,
          "3dbd367da0e6f97fbc4b63c236cc6420546ccd9a4a9943e5831a6c08ea6168ff"
        ),
        (
          "2", "b", ("CREATE TABLE b (x);\n", 1, true, "m/0002_b.sql"),
          nil,
          "b1fef1ac22eb19a04372fc5939ae4da7b44217237941135885fc5e349ffb7263"
        ),
        (
          "3", "c", ("-- no-transaction\nSELECT 1;\n", 1, false, "m/0003_c.up.sql"),
          ("SELECT 2;\n", 1, true, "m/0003_c.down.sql"),
          "17db4fd369edb9244b9f91d9aeed145c3d04ad8ba6e95d06247f07a63527d11a"
        ),
      ]
    ),
    3: (
      "goose",
      [
        (
          "1", "a", ("CREATE TABLE a (x);", 3, true, "m/0001_a.sql"),
          ("DROP TABLE a;\n", 6, true, "m/0001_a.sql"),
          "5d4dfde3b9ddf0a46b24120bb95e8ec12aaf6782f4c94912c492152df44fac27"
        ),
        (
          "2", "b", ("VACUUM;\n", 3, false, "m/0002_b.sql"),
          nil,
          "3dbd367da0e6f97fbc4b63c236cc6420546ccd9a4a9943e5831a6c08ea6168ff"
        ),
        (
          "3", "c", ("SELECT 3;", 2, true, "m/0003_c.sql"),
          ("", 4, true, "m/0003_c.sql"),
          "6d51e258cb323b98bf07dd6658c78c08adaf998a8e717f85e02d9c7ce869608b"
        ),
      ]
    ),
    4: (
      "sql-migrate",
      [
        (
          "1", "a", ("CREATE TABLE a (x);", 2, true, "m/1_a.sql"),
          ("DROP TABLE a;\n", 4, true, "m/1_a.sql"),
          "5d4dfde3b9ddf0a46b24120bb95e8ec12aaf6782f4c94912c492152df44fac27"
        ),
        (
          "2", "b", ("VACUUM;\n", 2, false, "m/2_b.sql"),
          nil,
          "3dbd367da0e6f97fbc4b63c236cc6420546ccd9a4a9943e5831a6c08ea6168ff"
        ),
      ]
    ),
    5: (
      "bundle",
      [
        (
          "1", "", ("CREATE TABLE a (x);\n", 1, true, "m/1.sql"),
          nil,
          "5d4dfde3b9ddf0a46b24120bb95e8ec12aaf6782f4c94912c492152df44fac27"
        ),
        (
          "2", "", ("SELECT 2;\n", 1, true, "m/2.sql"),
          nil,
          "8e7003d62f9d8cbd28da2f243bb0d215bfd4622c716be09be89a8764d9f4c7cb"
        ),
      ]
    ),
    6: (
      "dbmate",
      [
        (
          "9", "nine", ("SELECT 9;", 1, true, "m/009_nine.SQL"),
          nil,
          "38e1eb3c85551e61fcc4826554d567d9cb0b18833dca7ee119edfa974617a5fd"
        ),
        (
          "10", "ten", ("SELECT 10;", 1, true, "m/10_ten.sql"),
          nil,
          "7510ac2d3839abb00501a87ab8f322480d834271227b9db6e764531bef02c683"
        ),
        (
          "11", "eleven", ("SELECT 11;", 1, true, "m/0000000000000000000011_eleven.sql"),
          nil,
          "06c02cada577a9b1bda95809ce6b0373c834ebb29089d0468bc6bce277e1f865"
        ),
        (
          "12", "\u{e9}", ("SELECT 12;", 1, true, "m/12_\u{e9}.sql"),
          nil,
          "808989e73f50dc783dda1d689e517c9d3f3e54c5ec6c6ea7524ee5a6ac7746e4"
        ),
        (
          "13", "a.b", ("SELECT 13;", 1, true, "m/13_a.b.sql"),
          nil,
          "5a15c1d9463f9a18fb93076715738eb010ffde5d198a593c015f59591dcdde5b"
        ),
      ]
    ),
    12: (
      "dbmate",
      [
        (
          "1", "a", ("\u{2003}-- migrate:down\nB;", 2, true, "m/1_a.sql"),
          ("", 5, true, "m/1_a.sql"),
          "ed02942c5534b9594be5baab0d5ae58edebe6a55333192a2be32824bdea1b4e3"
        )
      ]
    ),
  ]

  static let refusals: [Int: String] = [
    7:
      "m mixes migration formats: m/1_a.sql is goose and m/2_b.sql is a file without "
      + "markers; strata reads one format per folder, so nothing was run",
    8:
      "m/1_a.sql:1: SQL before the first '-- migrate:' marker",
    9:
      "m/1_a.sql:1: unknown option 'transaction:maybe' after '-- migrate:up'",
    10:
      "m/1_a.sql:3: '-- migrate :down' looks like a marker but is not one: strata, like "
      + "dbmate, reads exactly '-- migrate:up' and '-- migrate:down' (lowercase, with the "
      + "colon, ASCII only); none of the file was run",
    11:
      "m/1_a.up.sql:2: '-- migrate:down' in one file of an .up.sql/.down.sql pair, which "
      + "holds one part only; none of it was run",
  ]

  @Test(arguments: ParserAgreementCases.folders.indices)
  func readsAsBefore(folder index: Int) throws {
    let folder = ParserAgreementCases.folders[index]
    let read = { try MigrationSet(files: folder.files, directory: "m", format: folder.format) }
    if let refusal = Self.refusals[index] {
      do {
        _ = try read()
        Issue.record("folder \(index) was read; it should be refused: \(refusal)")
      } catch {
        #expect(error is MigrationError)
        #expect(String(describing: error) == refusal)
      }
      return
    }
    let set = try read()
    let expected = try #require(Self.expected[index])
    #expect(set.format.rawValue == expected.format)
    #expect(set.migrations.count == expected.migrations.count)
    for (migration, want) in zip(set.migrations, expected.migrations) {
      #expect(migration.version.text == want.version)
      #expect(migration.name == want.name)
      #expect(migration.up.sql == want.up.sql, "\(want.up.file)")
      #expect(migration.up.firstLine == want.up.firstLine, "\(want.up.file)")
      #expect(migration.up.isTransactional == want.up.isTransactional, "\(want.up.file)")
      #expect(migration.up.file == want.up.file)
      #expect(migration.down?.sql == want.down?.sql, "\(want.up.file)")
      #expect(migration.down?.firstLine == want.down?.firstLine, "\(want.up.file)")
      #expect(migration.down?.isTransactional == want.down?.isTransactional, "\(want.up.file)")
      #expect(migration.down?.file == want.down?.file)
      #expect(migration.checksum == want.checksum, "\(want.up.file)")
    }
  }

  /// Sections past the 64 whose down markers are kept as bits: a file is reversible only when
  /// every section has a down marker.
  @Test func manySections() throws {
    func folder(withoutDownIn missing: Int?) -> [(name: String, bytes: [UInt8])] {
      let text = (0..<70).map { (section: Int) -> String in
        "-- migrate:up\nA\(section);\n"
          + (section == missing ? "" : "-- migrate:down\nD\(section);\n")
      }.joined()
      return [("1_many.sql", Array(text.utf8))]
    }
    let reversible = try MigrationSet(files: folder(withoutDownIn: nil), directory: "m")
    let down = try #require(reversible.migrations.first?.down)
    // The down sections run last first.
    let statements = down.sql.split(separator: "\n").map(String.init)
    #expect(statements == (0..<70).reversed().map { "D\($0);" })
    for missing in [3, 66] {
      let set = try MigrationSet(files: folder(withoutDownIn: missing), directory: "m")
      #expect(set.migrations.first?.down == nil, "section \(missing)")
    }
  }
}
