/// Not written yet.
enum InitBenchmark {
  static func run() throws {
    print("init: not written yet")
  }
}
