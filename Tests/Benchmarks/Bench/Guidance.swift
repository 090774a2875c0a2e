// The offline assistant over a generated guidance tree: free-text answers.
import Foundation
import MigrantChatCore
import MigrantChatIO

private let topics = [
  "residence permit", "health insurance", "housing", "work permit", "schools", "family",
  "taxes", "social benefits", "driving licence", "language courses",
]
private let words = [
  "application", "deposit", "contract", "landlord", "employer", "visa", "appointment", "office",
  "document", "certificate", "payment", "insurance", "registration", "extension", "child",
  "teacher", "doctor", "emergency", "translation", "fee", "deadline", "form", "passport", "address",
  "change", "loss", "renewal", "student", "pension", "unemployment", "benefit", "court", "police",
]

func guidanceTree(count: Int) -> GuidanceTree {
  var generator = SplitMix(seed: 42)
  let tags = topics.enumerated().map { FaqTag(id: Int64($0.offset + 1), name: $0.element) }
  var items: [FaqItem] = []
  for id in 1...count {
    let title = (0..<4).map { _ in words[generator.next(words.count)] }.joined(separator: " ")
    let text = (0..<40).map { _ in words[generator.next(words.count)] }.joined(separator: " ")
    var item = FaqItem(
      id: Int64(id), parentID: id > 10 && id % 3 == 0 ? Int64(id / 3) : nil,
      title: "\(topics[id % topics.count]) \(title)", text: "<p>\(text)</p>")
    item.tags = [Int64(id % topics.count + 1)]
    item.question = id % 5 == 0 ? "Do you have a \(words[generator.next(words.count)])?" : nil
    items.append(item)
  }
  return GuidanceTree(tags: tags, items: items)
}

func benchGuidance(count: Int) async {
  let clock = ContinuousClock()
  var tree = GuidanceTree.empty
  let build = clock.measure { tree = guidanceTree(count: count) }
  print(String(format: "guidance tree of %d items built in %.1f ms", count, milliseconds(build)))
  figure("guidance.build_ms", milliseconds(build))
  let assistant = OfflineAssistant(tree: tree, stemmer: SnowballStemmer.shared)
  var generator = SplitMix(seed: 7)
  var times: [Double] = []
  for index in 0..<2000 {
    let query = (0..<(1 + index % 4)).map { _ in
      let word = words[generator.next(words.count)]
      return index % 3 == 0 ? String(word.prefix(4)) : word
    }.joined(separator: " ")
    let elapsed = await clock.measure {
      _ = await assistant.respond(sender: "bench", message: query, language: .en)
    }
    times.append(milliseconds(elapsed))
  }
  times.sort()
  print(
    String(
      format:
        "free-text answer, 2000 queries over %d guides: p50 %.3f ms, p99 %.3f ms, max %.2f ms",
      count, percentile(times, 0.5), percentile(times, 0.99), times.last ?? 0))
  figure("guidance.answer_p50_ms", percentile(times, 0.5))
  figure("guidance.answer_p99_ms", percentile(times, 0.99))
}

/// A small seeded generator, so every run measures the same data.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
