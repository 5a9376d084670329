import Testing

@testable import Strata

/// The rules each seed mode declares hold together: the one `switch` that defines them is what
/// the loader, the seeder and the report read.
@Suite struct SeedModeRulesTests {
  @Test(arguments: SeedMode.allCases)
  func onlyAModeWithoutAKeyLocatesAFailureByTheRowCount(mode: SeedMode) {
    // With a key, skipped or updated rows do not count, so `changes()` cannot name the row.
    let rules = mode.rules
    #expect(rules.stopsAtFailingRow == (rules.keyConflict == nil))
  }

  @Test(arguments: SeedMode.allCases)
  func aModeThatDeletesFirstMayOrphanChildrenAndShowsItsDeletes(mode: SeedMode) {
    let rules = mode.rules
    if rules.deletesFirst {
      #expect(rules.mayOrphanChildren)
      #expect(rules.keyConflict == nil)
    }
    #expect(mode.deletesExistingRows == rules.deletesFirst)
  }

  @Test func theFourModesDecideAsDocumented() {
    #expect(SeedMode.missing.rules.keyConflict == .keepExisting)
    #expect(SeedMode.upsert.rules.keyConflict == .updateExisting)
    #expect(SeedMode.upsert.rules.mayOrphanChildren)
    #expect(SeedMode.replace.rules.deletesFirst)
    #expect(!SeedMode.replace.rules.reportsUnchanged)
    #expect(SeedMode.append.rules.keyConflict == nil)
    #expect(!SeedMode.append.rules.deletesFirst)
  }
}
