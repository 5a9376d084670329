/// The line of each offset of a text visited in order, counting newlines only once: the script
/// splitter asks for each statement's line as it goes.
struct LineCounter {
  var line: Int
  var position = 0

  init(firstLine: Int) { line = firstLine }

  mutating func line(at offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
    while position < offset {
      if buffer[position] == UInt8(ascii: "\n") { line += 1 }
      position += 1
    }
    return line
  }
}
