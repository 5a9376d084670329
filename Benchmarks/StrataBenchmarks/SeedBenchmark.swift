/// Not written yet.
enum SeedBenchmark {
  static func run() throws {
    print("seed: not written yet")
  }
}
