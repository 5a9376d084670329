import Strata

// Requests sent ahead of their answers (the seeder's batches over the wire): the node serves
// one request at a time, so the next batch travels while this one runs, and the answers are
// read in order, later.
extension NodeConnection {
  /// EXEC of a prepared statement sent without waiting for its answer: the node serves its
  /// requests one after another, so the next batch travels while this one runs. The answers
  /// are read by `answersToLater` (or by the next other request); at most `requestsAhead` wait.
  package func execLater(
    database: UInt32,
    statement: UInt32,
    sql: String,
    _ parameters: [SQLValue]
  ) throws(DqliteError) {
    if unanswered.count >= Self.requestsAhead { try readLaterAnswer() }
    // A batch failed: stop sending, say so now.
    if laterFailure != nil { try readAnswersAhead() }
    let request = try WireRequest.statement(
      .exec,
      database: database,
      statement: statement,
      parameters: parameters
    )
    requestsSent += 1
    try send(request, waitingFor: "the EXEC request")
    unanswered.append(sql)
  }

  /// Reads every answer owed to `execLater`: the rows the requests changed, together.
  ///
  /// - Throws: The first refused request's `DqliteError.failure`, once every answer is read
  ///   (the requests after it were run all the same); a broken connection at once.
  package func answersToLater() throws(DqliteError) -> Int64 {
    try readAnswersAhead()
    defer { laterRows = 0 }
    return laterRows
  }

  /// Reads every answer owed to `execLater`, adding up their rows for `answersToLater`.
  ///
  /// - Throws: The first refused request's failure (the rows counted so far are dropped).
  func readAnswersAhead() throws(DqliteError) {
    while !unanswered.isEmpty { try readLaterAnswer() }
    guard let failure = laterFailure else { return }
    (laterRows, laterFailure) = (0, nil)
    throw failure
  }

  private func readLaterAnswer() throws(DqliteError) {
    let sql = unanswered.removeFirst()
    do {
      laterRows += try WireDecoder.result(receive(answering: "EXEC"), node: node, sql: sql)
        .rowsAffected
    } catch {
      guard case .failure = error, isUsable else {
        unanswered.removeAll()
        (laterRows, laterFailure) = (0, nil)
        throw error
      }
      if laterFailure == nil { laterFailure = error }
    }
  }
}
