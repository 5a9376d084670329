/// `text` in single quotes for a message, with control characters (line breaks, escape
/// sequences, C1 codes) written as `\u{1B}`: an argument is the user's text, and echoing it
/// raw could break the message's line or drive the terminal.
public func quotedArgument(_ text: String) -> String {
  var shown = "'"
  for scalar in text.unicodeScalars {
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
      shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    } else {
      shown.unicodeScalars.append(scalar)
    }
  }
  return shown + "'"
}
