import MigrantChatCore
import Testing

@testable import MigrantChatIO

/// The typed-line reading on the built-in tables: the lines, and what is
/// never read.
@Suite struct LineReadingTests {
  static func reading(_ line: String, _ language: Language) throws -> LineReading? {
    let tables = try #require(WordTables.builtIn)
    return TypedLineReader(tables: tables).reading(
      of: line, language: language, isName: KnownNames.isName)
  }

  @Test(arguments: [
    ("ghjljd;tyyz gjcdslrb", Language.uk, "продовження посвідки", LineReading.Way.englishLayout),
    ("prodlenie vizy", .ru, "продление визы", .latinLetters),
    ("strakhovka", .ru, "страховка", .latinLetters),
    ("posvidka na prozhyvannia", .uk, "посвідка на проживання", .latinLetters),
    ("Ghbdtn", .ru, "Привет", .englishLayout),
    ("rfr ltkf&", .ru, "как дела?", .englishLayout),
    ("ult yf[jlbncz OAMP", .ru, "где находится OAMP", .englishLayout),
    ("4to delat", .ru, "что делать", .latinLetters),
    ("zr pd`zpfnbcz p VZP", .uk, "як зв'язатися з VZP", .englishLayout),
    ("rfr pfgbcfnmcz d VDL", .ru, "как записаться в МВД", .englishLayout),
    ("ya zhivu v Brno", .ru, "я живу в Brno", .latinLetters),
    ("руддщ", .en, "hello", .cyrillicLayout),
  ])
  func linesTypedTheWrongWayAreReadAsMeant(
    line: String, language: Language, meant: String, way: LineReading.Way
  ) throws {
    let found = try Self.reading(line, language)
    let reading = try #require(found)
    #expect(reading.text == meant)
    #expect(reading.way == way)
    #expect(reading.typed == line)
  }

  @Test(arguments: [
    ("kde je urad prace", Language.ru), ("dobry den", .ru), ("dobrý den", .uk),
    ("mama doma", .ru), ("I need help with my visa", .uk), ("help", .ru), ("ok", .uk),
    ("VZP", .ru), ("OAMP Brno", .uk), ("ÚP", .ru), ("+420 777 123 456", .ru),
    ("15.12.2026", .uk), ("olena.k@seznam.cz", .uk), ("https://www.mvcr.cz/", .ru),
    ("frs.gov.cz", .ru), ("Olena Kovalenko", .uk), ("Ivan Petrenko", .ru),
    ("Nguyen Van Anh", .uk), ("Vinohradská 12, Praha 2", .ru), ("привет", .ru),
    ("где находится OAMP", .ru), ("/todo add prodlenie vizy", .ru), ("hello", .en),
    ("prodlenie vizy", .en), ("", .ru), ("   ", .uk), ("Ostrava", .uk),
  ])
  func linesTypedRightAreSentAsTyped(line: String, language: Language) throws {
    #expect(try Self.reading(line, language) == nil)
  }

  @Test func aVeryLongLineIsSentAsTyped() throws {
    let long = String(repeating: "ghbdtn ", count: 100)
    #expect(try Self.reading(long, .ru) == nil)
  }

  @Test func theConversationsOwnWordsAreWordsOfItsLanguage() throws {
    let tables = try #require(WordTables.builtIn)
    let reader = TypedLineReader(tables: tables)
    // A bot's made-up word: read only once the bot has said it.
    #expect(reader.reading(of: "pfzdrfvbuhfwbz", language: .ru) == nil)
    let bot = WordTable(words: ["заявкамиграция": 4])
    let reading = reader.reading(of: "pfzdrfvbuhfwbz", language: .ru, conversation: bot)
    #expect(reading?.text == "заявкамиграция")
  }
}

extension LineReadingTests {
  /// A line begun in Cyrillic that went on with the English layout is read from there.
  @Test func aLineThatSwitchedLayoutPartWayIsReadFromThere() throws {
    let found = try Self.reading("нужна cnhf[jdrf", .ru)
    #expect(found?.text == "нужна страховка")
    #expect(found?.way == .englishLayout)
    #expect(try Self.reading("мені потрібна VZP", .uk) == nil)
    #expect(try Self.reading("где находится OAMP в Brno", .ru) == nil)
  }
}

extension LineReadingTests {
  /// Due dates typed with the English layout on or in Latin letters are read (#48).
  @Test func dueDatesAreReadToo() throws {
    let reader = TypedLineReader(tables: try #require(WordTables.builtIn))
    let today = try #require(DayDate(year: 2026, month: 11, day: 29))
    #expect(DueDateText.parse("lj rsywz vsczwz", today: today) == nil)
    #expect(
      DueDateText.parse("lj rsywz vsczwz", today: today, reader: reader)
        == DayDate(year: 2026, month: 11, day: 30))
    #expect(
      DueDateText.parse("za 2 tyzhni", today: today, reader: reader)
        == DayDate(year: 2026, month: 12, day: 13))
    #expect(DueDateText.parse("qwerty", today: today, reader: reader) == nil)
    let found = DueDateText.trailing("podaty zaiavu lj 15 uhelyz", today: today, reader: reader)
    #expect(found?.phrase == "lj 15 uhelyz")
    #expect(found?.due == DayDate(year: 2026, month: 12, day: 15))
  }
}

extension LineReadingTests {
  /// What a Ukrainian tester typed on a borrowed PC (#48's hour of use).
  @Test(arguments: [
    ("cto delat", Language.ru, "что делать"), ("my ishem rabotu", .ru, "мы ищем работу"),
    ("kak zapisatsa k vrachu", .ru, "как записаться к врачу"),
    ("4y treba strahovka", .uk, "чи треба страховка"),
    ("u menja vopros po VNZh", .ru, "у меня вопрос по ВНЖ"),
  ])
  func chatSpellingsAreRead(line: String, language: Language, meant: String) throws {
    #expect(try Self.reading(line, language)?.text == meant)
  }

  @Test(arguments: [
    ("frs.gov.cz/cs/", Language.uk), ("Kovalenko Olena, nar. 3.4.1990", .uk),
    ("Shevchenko Oksana, nar. 12.5.1988", .uk), ("Ja zhyvu na Vinohradska 12", .uk),
    ("Mene zvaty Oksana Shevchenko", .uk),
  ])
  func namesAndAddressesTheTesterTypedStay(line: String, language: Language) throws {
    #expect(try Self.reading(line, language) == nil)
  }
}
