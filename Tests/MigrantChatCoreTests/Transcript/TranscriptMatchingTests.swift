import Foundation
import Testing

@testable import MigrantChatCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct TranscriptMatchingTests {
  let here = SourceLocation(file: "t.yaml", line: 1)

  @Test func textModes() {
    #expect(TextMatch.exact("Hi", ignoreCase: false).matches("Hi"))
    #expect(!TextMatch.exact("Hi", ignoreCase: false).matches("hi"))
    #expect(TextMatch.exact("Hi", ignoreCase: true).matches("hI"))
    #expect(TextMatch.contains("lo W", ignoreCase: false).matches("Hello World"))
    #expect(!TextMatch.contains("lo w", ignoreCase: false).matches("Hello World"))
    #expect(TextMatch.contains("ПРИВ", ignoreCase: true).matches("привіт"))
    #expect(TextMatch.regex("^\\d{3}$", ignoreCase: false).matches("123"))
    #expect(!TextMatch.regex("^\\d{3}$", ignoreCase: false).matches("1234"))
    #expect(TextMatch.glob("He*o ?orld", ignoreCase: false).matches("Hello World"))
    #expect(!TextMatch.glob("He*o", ignoreCase: false).matches("Hello World"))
    #expect(TextMatch.glob("*", ignoreCase: false).matches(""))
    #expect(TextMatch.glob("a*b*c", ignoreCase: false).matches("aXbYbZc"))
    let either = TextMatch.anyOf([
      .exact("a", ignoreCase: false), .contains("zz", ignoreCase: false),
    ])
    #expect(either.matches("a") && either.matches("xzzx") && !either.matches("b"))
    #expect(!TextMatch.contains("", ignoreCase: false).matches(nil))
  }

  @Test func lists() {
    #expect(ListMatch.exact(["A", "B"]).matches(["A", "B"]))
    #expect(!ListMatch.exact(["A", "B"]).matches(["B", "A"]))
    #expect(!ListMatch.exact(["A"]).matches(["A", "B"]))
    #expect(ListMatch.contains(["B"]).matches(["A", "B"]))
    #expect(!ListMatch.contains(["C"]).matches(["A", "B"]))
    #expect(ListMatch.exact(["a, b"]).summary == #"["a, b"]"#)
  }

  @Test func customIsASubset() {
    let custom: JSONValue = .object([
      "contacts": .array([.number(1)]), "slot": .object(["a": .number(1), "b": .string("x")]),
    ])
    #expect(custom.contains(subset: .object(["slot": .object(["a": .number(1)])])))
    #expect(!custom.contains(subset: .object(["slot": .object(["a": .number(2)])])))
    #expect(!custom.contains(subset: .object(["missing": .null])))
  }

  @Test func aMessageNamesEveryMismatchAndNegationWorks() {
    let message = BotMessage(
      text: "Pick one", buttons: [Button(title: "Yes", payload: "/y")],
      image: "https://i.example/x.png",
      custom: .object(["contacts": .array([.number(7)])]))
    let matching = MessageExpectation(
      text: .exact("Pick one", ignoreCase: false), buttons: .exact(["Yes"]),
      contacts: .exact(["7"]),
      image: .contains("i.example", ignoreCase: false), location: here)
    #expect(matching.mismatches(message).isEmpty)
    let wrong = MessageExpectation(
      text: .contains("nope", ignoreCase: false), buttons: .contains(["No"]),
      contacts: .exact(["8"]), location: here)
    #expect(wrong.mismatches(message).count == 3)
    let negated = MessageExpectation(
      not: [MessageExpectation(buttons: .contains(["Yes"]), location: here)], location: here)
    #expect(
      negated.mismatches(message) == [#"not: expected no match for buttons contains ["Yes"]"#])
    let negatedOK = MessageExpectation(
      not: [MessageExpectation(text: .exact("Other", ignoreCase: false), location: here)],
      location: here)
    #expect(negatedOK.mismatches(message).isEmpty)
  }

  @Test func unifiedDiff() {
    #expect(UnifiedDiff.diff(expected: ["a", "b"], actual: ["a", "b"]).isEmpty)
    #expect(
      UnifiedDiff.diff(expected: ["a", "b", "c"], actual: ["a", "x", "c"])
        == ["--- expected", "+++ actual", " a", "-b", "+x", " c"])
    let long = (1...20).map(String.init)
    var changed = long
    changed[10] = "changed"
    let diff = UnifiedDiff.diff(expected: long, actual: changed, context: 2)
    #expect(
      diff == [
        "--- expected", "+++ actual", "@@ …", " 9", " 10", "-11", "+changed", " 12", " 13", "@@ …",
      ])
  }

  @Test func junitIsEscapedAndParsesBack() throws {
    let transcript = Transcript(
      name: "a <b> & \"c\"", steps: [], location: SourceLocation(file: "dir/x.yaml", line: 1))
    let failed = TranscriptResult(
      transcript: transcript,
      failure: TranscriptResult.Failure(
        location: SourceLocation(file: "dir/x.yaml", line: 4),
        reasons: ["text: expected \"<x>\"\u{1B}[31m"],
        diff: ["-a", "+b"]),
      seconds: 0.25, turnSeconds: [0.1], steps: [])
    var passed = failed
    passed.failure = nil
    let xml = JUnitReport.xml([failed, passed])
    let document = try XMLDocument(xmlString: xml)
    let cases = try document.nodes(forXPath: "//testcase")
    #expect(cases.count == 2)
    #expect((cases[0] as? XMLElement)?.attribute(forName: "name")?.stringValue == "a <b> & \"c\"")
    let failure = try document.nodes(forXPath: "//testcase/failure").first as? XMLElement
    #expect(
      failure?.attribute(forName: "message")?.stringValue?.hasPrefix(
        "dir/x.yaml:4: text: expected \"<x>\"") == true)
    #expect(failure?.stringValue?.contains("-a\n+b") == true)
    #expect(!xml.contains("\u{1B}"))
    let suites = try document.nodes(forXPath: "/testsuites").first as? XMLElement
    #expect(suites?.attribute(forName: "failures")?.stringValue == "1")
  }

  /// Two stories of one file with one name are told apart by their line; a transcript
  /// repeated keeps its name.
  @Test func junitTellsTwoTestsOfOneNameApart() throws {
    func result(line: Int) -> TranscriptResult {
      TranscriptResult(
        transcript: Transcript(
          name: "happy path", steps: [], location: SourceLocation(file: "s.yml", line: line)),
        failure: nil, seconds: 0, turnSeconds: [], steps: [])
    }
    let named = { (xml: String) throws -> [String] in
      try XMLDocument(xmlString: xml).nodes(forXPath: "//testcase/@name").map {
        $0.stringValue ?? ""
      }
    }
    #expect(
      try named(JUnitReport.xml([result(line: 3), result(line: 9)])) == [
        "happy path (line 3)", "happy path (line 9)",
      ])
    #expect(
      try named(JUnitReport.xml([result(line: 3), result(line: 3)])) == [
        "happy path", "happy path",
      ])
  }
}
