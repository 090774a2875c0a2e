import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct JSONParserTests {
  func parse(_ text: String) -> JSONValue? { try? JSONParser.parse(text) }

  @Test(arguments: [
    ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)), ("0", .number(0)),
    ("-0", .number(-0.0)), ("138503", .number(138503)), ("-12.5e2", .number(-1250)),
    ("1E-2", .number(0.01)), ("123456789012345678901", .number(1.2345678901234568e20)),
    (#""""#, .string("")), (#""a\"b\\c\/d\b\f\n\r\t""#, .string("a\"b\\c/d\u{8}\u{C}\n\r\t")),
    (#""\u0041\u00e9\u041f\ud83d\ude00""#, .string("AéП😀")), (" [ ] ", .array([])),
    ("{}", .object([:])),
    (
      #"[1,"x",{"a":[null]}]"#, .array([.number(1), .string("x"), .object(["a": .array([.null])])])
    ),
    (#"{"a":1,"a":2}"#, .object(["a": .number(1)])),
    (#""Привіт, 中文""#, .string("Привіт, 中文")),
    // What Foundation's decoder also takes: trailing commas, raw control characters.
    (#""\x41\w""#, .string("x41w")), (#""\u12G4""#, .string("u12G4")), (#""\u12""#, .string("u12")),
    ("[1,]", .array([.number(1)])), ("068", .number(68)),
    ("-00.5", .number(-0.5)),
    (#"{"a":1,}"#, .object(["a": .number(1)])),
    ("\"tab\there\u{C}\"", .string("tab\there\u{C}")),
  ])
  func validDocuments(text: String, expected: JSONValue) {
    #expect(parse(text) == expected)
  }

  @Test(arguments: [
    "", " ", "nul", "tru", "[", "]", "[1,,]", "[,1]", "[,]", "{,}", #"{"a"}"#, #"{"a":}"#,
    #"{a:1}"#,
    "{'a':1}", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "0.", "-.5", "NaN", "Infinity", #""abc"#,
    "[1] [2]", "[1]x", "// c\n1",
    "\u{FEFF}[]", "[1 2]", #"{"a":1 "b":2}"#, "0\u{0}",
  ])
  func invalidDocuments(text: String) {
    #expect(parse(text) == nil, "\(text.debugDescription)")
  }

  @Test func loneSurrogatesAndInvalidUTF8BecomeReplacementCharacters() throws {
    #expect(parse(#""a\ud800b""#) == .string("a\u{FFFD}b"))
    #expect(parse(#""\udc00""#) == .string("\u{FFFD}"))
    #expect(parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
    let bytes = Data(#"["caf"#.utf8) + Data([0xFF, 0xC3, 0x28]) + Data(#""]"#.utf8)
    #expect(try JSONParser.parse(bytes) == .array([.string("caf\u{FFFD}\u{FFFD}(")]))
  }

  @Test func nestingStopsAtTheLimitWithoutExhaustingTheStack() {
    let limit = JSONParser.maxDepth
    #expect(
      parse(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) != nil)
    let over = limit + 1
    #expect(parse(String(repeating: "[", count: over) + String(repeating: "]", count: over)) == nil)
    let deep = 100_000
    #expect(
      parse(String(repeating: #"{"a":"#, count: deep) + "1" + String(repeating: "}", count: deep))
        == nil)
  }

  @Test func theFailureSaysWhere() {
    #expect(throws: JSONParser.Failure(offset: 4)) { try JSONParser.parse("[1, x]") }
  }

  /// The same values as Foundation's decoder on the recorded answers and the sample data.
  @Test func agreesWithFoundationOnRecordedAnswers() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var documents: [Data] = []
    for name in ["rasa-answers.jsonl", "serve-answers.jsonl"] {
      let text = try String(
        contentsOf: root.appendingPathComponent("Tests/Benchmarks/Fixtures/" + name),
        encoding: .utf8)
      documents += text.split(separator: "\n").map { Data($0.utf8) }
    }
    for name in ["contacts", "faq-tags", "faq-items"] {
      documents.append(
        try Data(
          contentsOf: root.appendingPathComponent("Sources/MigrantChatCore/SampleData/\(name).json")
        ))
    }
    #expect(documents.count > 200)
    for document in documents {
      let foundation = try JSONDecoder().decode(JSONValue.self, from: document)
      #expect(try JSONParser.parse(document) == foundation)
    }
  }
}
