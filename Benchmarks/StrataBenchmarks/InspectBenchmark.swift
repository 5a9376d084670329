/// Not written yet.
enum InspectBenchmark {
  static func run() throws {
    print("inspect: not written yet")
  }
}
