import CWordTables
import MigrantChatCore

extension WordTables {
  /// The tables built into the program (Sources/CWordTables/tables, from
  /// Tools/wordfreq): read in place, nothing loaded before a line is read.
  public static let builtIn: WordTables? = {
    func table(_ number: Int32) -> WordTable? {
      var count: UInt = 0
      guard let start = mc_word_table(number, &count) else { return nil }
      return WordTable(static: UnsafeRawBufferPointer(start: start, count: Int(count)))
    }
    guard let english = table(0), let czech = table(1), let russian = table(2),
      let ukrainian = table(3)
    else { return nil }
    return WordTables(english: english, czech: czech, russian: russian, ukrainian: ukrainian)
  }()
}
