import Foundation
import Testing

@testable import MigrantChatCore

/// A large table parsed in parts gives what one parse of the whole gives, or
/// nothing (and the whole is parsed as before, with its error).
@Suite struct JSONItemsSplitterTests {
  /// The elements as the whole text's parse has them, or nil when it is not JSON.
  static func whole(_ text: String) -> [JSONValue]? {
    guard let value = try? JSONParser.parse(text) else { return nil }
    return value["items"]?.arrayValue
  }

  static func split(_ text: String) -> [JSONValue]? {
    JSONItemsSplitter.items(of: Data(text.utf8)) { $0 }?.items
  }

  @Test(arguments: [
    #"{"items":[]}"#, #"{"items":[1,2,3]}"#, #" { "items" : [ {"a":1} , {"b":[1,[2]]} ] } "#,
    #"{"before":{"items":[9]},"items":[{"s":"]}\"[{,"}],"after":[1,2]}"#,
    #"{"items":["a\\",{"x":"\\\""}, null, true, false, -1.5e3]}"#,
    #"{"items":[1,2,],"x":1}"#, "{\"items\":[\n\t{\"id\":1}\r\n]}", #"{"items":[[[]]]}"#,
    #"{"items":[1],"items":[2]}"#, #"{"x":"y","items":[{"id":"7","name":"Úřad 😀"}]}"#,
  ])
  func partsAreTheWhole(text: String) {
    #expect(Self.split(text) == Self.whole(text), "\(text)")
    #expect(Self.split(text) != nil, "\(text)")
  }

  /// Not JSON, or not shaped as the scan expects: nil, so the caller's one parse
  /// reports it.
  @Test(arguments: [
    #"{"items":[1,2"#, #"{"items":[1,,2]}"#, #"{"items":[1 2]}"#, #"{"items":[{"a":}]}"#,
    #"{"items":[1]} x"#, #"{"items":[1],}x"#, #"{"\u0069tems":[1]}"#, #"[1,2]"#, #"{"x":1}"#,
    #"{"items":[1],"x":}"#, #"{"items":["unterminated]}"#, #"{"items":[[1]]]}"#, "",
    #"{"items":[{"a":1}}]}"#, #"{"items":[nul]}"#,
  ])
  func brokenOrUnexpectedTextIsLeftToTheWholeParse(text: String) {
    #expect(Self.split(text) == nil, "\(text)")
  }

  /// Elements are parsed at their depth in the document: the nesting limit is the same.
  @Test func theNestingLimitIsTheWholeTexts() {
    let depth = JSONParser.maxDepth - 2
    let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let tooDeep = "[" + deepest + "]"
    #expect(Self.split(#"{"items":[\#(deepest)]}"#) == Self.whole(#"{"items":[\#(deepest)]}"#))
    #expect(Self.whole(#"{"items":[\#(tooDeep)]}"#) == nil)
    #expect(Self.split(#"{"items":[\#(tooDeep)]}"#) == nil)
  }

  /// A directory larger than the threshold decodes to the same contacts either way.
  @Test func aLargeTableDecodesToTheSameContacts() throws {
    let items = (1...6_000).map { id in
      #"{"id":\#(id),"name":"Office \"\#(id)\" [x]","city":"Brno","latitude":49.\#(id)}"#
    }
    let body = Data((#"{"items":["# + items.joined(separator: ",") + #",{"id":"bad"}]}"#).utf8)
    #expect(body.count < JSONItemsSplitter.minimumSize)
    let split = try #require(
      JSONItemsSplitter.items(of: body, transform: ItemsPayloadDecoder.contact))
    let whole = try ItemsPayloadDecoder.contacts(body)
    #expect(split.items == whole.items)
    #expect(split.skipped == 1 && whole.skipped == 1)
    #expect(split.items.count == 6_000)
  }

  /// Above the threshold a sync takes the parallel path, and a broken table is
  /// still refused as a whole.
  @Test func aLargeBrokenTableIsStillRefused() {
    let items = (1...25_000).map { #"{"id":\#($0),"name":"Office number \#($0) in Brno"}"# }
    let text = #"{"items":["# + items.joined(separator: ",") + "]"
    #expect(text.utf8.count > JSONItemsSplitter.minimumSize)
    #expect(throws: ItemsPayloadFailure.notJSON) {
      try ItemsPayloadDecoder.contacts(Data(text.utf8))
    }
    let whole = try? ItemsPayloadDecoder.contacts(Data((text + "}").utf8))
    #expect(whole?.items.count == 25_000)
  }
}
