/// Reading a version with another ordering needs the folder's file names (`MigrationParser`),
/// so it stays with the histories it matches, above the version itself (`Versions/`).
extension MigrationVersion {
  /// The same text read with `ordering` (another tool's history matched with this folder's
  /// files); unchanged when the text is not a version of that ordering.
  func read(as ordering: Ordering) -> MigrationVersion {
    guard ordering != self.ordering else { return self }
    // A sql-migrate id named as strata names files (`0001_init.sql`) is that number in a
    // folder whose versions are numbers.
    if ordering == .numeric, self.ordering == .sqlMigrate,
      let name = MigrationParser.parseFileName(text), name.part == .whole
    {
      return MigrationVersion(integer: name.version)
    }
    return (try? MigrationVersion(text: text, ordering: ordering)) ?? self
  }
}
