/// Not written yet.
enum MigrateBenchmark {
  static func run() throws {
    print("migrate: not written yet")
  }
}
