/// The classes of variants `migrant-chat robustness` makes of a bot's examples
/// (issue #35), named as the command and its report name them.
public enum VariantClass: String, Sendable, CaseIterable {
  case transliteration
  case keyboardLayout = "keyboard-layout"
  case ruUkMix = "ru-uk-mix"
  case noDiacritics = "no-diacritics"
  case typo
  case casePunctuation = "case-punctuation"
  /// The example's entities swapped for others of their kind (`EntitySwap`).
  case entitySwap = "entity-swap"
  /// The example negated ("I don't need housing"): a directional test, reported,
  /// never counted as kept (`Negation`).
  case negation

  /// Judged by its direction (it must *not* keep the intent surely), not counted.
  public var isDirectional: Bool { self == .negation }
}

/// One way of writing an example as people do.
public struct UtteranceVariant: Sendable, Hashable {
  public var variantClass: VariantClass
  /// Which way within the class: a transliteration scheme, a layout, an edit.
  public var scheme: String
  public var text: String
  /// `entity-swap`: the entity swapped, and the variant with its new mark.
  public var swap: EntitySwap?

  public init(_ variantClass: VariantClass, _ scheme: String, _ text: String) {
    self.variantClass = variantClass
    self.scheme = scheme
    self.text = text
  }
}

/// Variants of a text as migrants type it, deterministic for a seed: the same
/// example, language, classes and seed give the same variants on every machine.
public enum UtteranceVariants {
  /// The variants of `text` (in `language`, the bot's training language) in
  /// `classes`, each once, none equal to `text`.
  public static func variants(
    of text: String, language: Language, classes: [VariantClass] = VariantClass.allCases,
    seed: UInt64 = 1
  ) -> [UtteranceVariant] {
    // Signs alone have no way of being typed otherwise worth asking a bot, and a
    // `/intent` payload is clicked, not typed.
    guard text.contains(where: \.isLetter), !text.hasPrefix("/") else { return [] }
    var generator = SeededGenerator(seed: seed ^ stableHash(text))
    // Each seeded class draws from its own generator, so adding or leaving one out
    // does not change another's variants.
    var spellings = SeededGenerator(seed: seed ^ stableHash("chat:" + text))
    var switches = SeededGenerator(seed: seed ^ stableHash("part-way:" + text))
    var variants: [UtteranceVariant] = []
    let cyrillic = KeyboardLayout.isCyrillic(Substring(text))
    for variantClass in classes {
      switch variantClass {
      case .transliteration where cyrillic:
        for scheme in Transliteration.allCases {
          variants.append(
            .init(.transliteration, scheme.rawValue, scheme.apply(text, language: language)))
        }
        variants.append(
          .init(
            .transliteration, "chat",
            Transliteration.chat(text, language: language, using: &spellings)))
      // Latin text with letters a QWERTY key does not type (Czech ě, š, ř) was not
      // typed on QWERTY: switching its layout makes what nobody types.
      case .keyboardLayout
      where text.allSatisfy({
        !$0.isLetter || $0.isASCII || KeyboardLayout.isCyrillic(Substring(String($0)))
      }):
        let layouts: [KeyboardLayout] = language == .uk ? [.ukrainian] : [.russian, .ukrainian]
        for layout in cyrillic ? [layouts[0]] : layouts {
          if let switched = layout.switched(text) {
            variants.append(.init(.keyboardLayout, layout.rawValue, switched))
          }
        }
        if let partWay = partWaySwitched(text, layout: layouts[0], using: &switches) {
          variants.append(.init(.keyboardLayout, layouts[0].rawValue + "-part-way", partWay))
        }
      case .ruUkMix where cyrillic:
        for (scheme, swap) in mixes(language) {
          let mixed = String(text.map { swap[$0] ?? $0 })
          variants.append(.init(.ruUkMix, scheme, mixed))
        }
      case .noDiacritics:
        variants.append(.init(.noDiacritics, "folded", withoutDiacritics(text)))
      case .typo:
        for edits in 1...2 {
          let typed = Typos.apply(edits, to: text, language: language, using: &generator)
          variants.append(.init(.typo, edits == 1 ? "one-edit" : "two-edits", typed))
        }
      case .casePunctuation:
        variants.append(.init(.casePunctuation, "lowercase", text.lowercased()))
        variants.append(.init(.casePunctuation, "uppercase", text.uppercased()))
        let bare = text.filter { !$0.isPunctuation }
        variants.append(.init(.casePunctuation, "no-punctuation", bare))
        variants.append(.init(.casePunctuation, "question", bare.trimmingWhitespace() + "??"))
      default:
        break
      }
    }
    var seen: Set<String> = [text]
    return variants.filter { !$0.text.isEmpty && seen.insert($0.text).inserted }
  }

  /// The layout switched part-way (Alt+Shift pressed by accident): the words
  /// from a drawn one on typed with the other layout. Nil for a single word.
  static func partWaySwitched(
    _ text: String, layout: KeyboardLayout, using generator: inout SeededGenerator
  ) -> String? {
    let words = text.split(separator: " ", omittingEmptySubsequences: false)
    let starts = words.indices.dropFirst().filter { words[$0].contains(where: \.isLetter) }
    guard let from = starts.randomElement(using: &generator) else { return nil }
    let rest = words[from...].joined(separator: " ")
    guard let switched = layout.switched(Substring(rest)) else { return nil }
    return (words[..<from] + [Substring(switched)]).joined(separator: " ")
  }

  /// How a Russian and Ukrainian speaker mixes the two: a Russian text typed on
  /// the Ukrainian layout (ы is і there, э is є, ъ is ї) or with Ukrainian
  /// letters, and the other way.
  static func mixes(_ language: Language) -> [(String, [Character: Character])] {
    if language == .uk {
      return [
        ("russian-layout", ["і": "ы", "є": "э", "ї": "ъ", "І": "Ы", "Є": "Э", "Ї": "Ъ"]),
        ("russian-letters", ["і": "и", "и": "ы", "ї": "и", "є": "е", "ґ": "г", "'": "ъ"]),
      ]
    }
    return [
      ("ukrainian-layout", ["ы": "і", "э": "є", "ъ": "ї", "Ы": "І", "Э": "Є", "Ъ": "Ї"]),
      ("ukrainian-letters", ["и": "і", "ы": "и", "е": "є", "ё": "е"]),
    ]
  }

  /// Czech (and any Latin) letters without their háček, čárka or kroužek, and
  /// Russian ё and й as people often type them, е and и.
  static func withoutDiacritics(_ text: String) -> String {
    String(
      text.map { character -> String in
        switch character {
        case "ё": return "е"
        case "Ё": return "Е"
        case "й": return "и"
        case "Й": return "И"
        default:
          guard character.unicodeScalars.contains(where: { (0xC0...0x24F).contains($0.value) })
          else { return String(character) }
          return String(character).decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { !(0x300...0x36F).contains($0.value) }.map(String.init).joined()
        }
      }.joined())
  }

  /// FNV-1a of the text's UTF-8: the same on every run and machine (Swift's
  /// `hashValue` is seeded per process).
  static func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}

/// SplitMix64: a small generator whose sequence is fixed by its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
