import Foundation

/// One example of a Rasa NLU test file: the text the bot is asked, the intent it
/// must find and the entities marked in it, as `rasa test nlu` reads them.
public struct NLUTestExample: Sendable, Hashable {
  public var text: String
  /// The intent it is listed under; a retrieval intent's (`faq/ask_name`) part
  /// before the slash, as Rasa judges it.
  public var intent: String
  public var entities: [NLUPrediction.Entity]
  /// The file it came from.
  public var file: String?

  public init(
    text: String, intent: String, entities: [NLUPrediction.Entity] = [], file: String? = nil
  ) {
    self.text = text
    self.intent = intent
    self.entities = entities
    self.file = file
  }

  /// An example as the training data writes it, entities marked: `[Brno](city)`,
  /// `[Prague](city:Praha)`, `[Prague]{"entity": "city", "value": "Praha", "role":
  /// "to"}`. A mark that names no entity is left as text.
  public init(intent: String, annotated: String, file: String? = nil) {
    let (text, marks) = RobustnessExample.parse(annotated)
    let characters = Array(text)
    // Character offsets to Unicode scalars, as Rasa (Python) counts them.
    var scalarOffset = [0]
    for character in characters {
      scalarOffset.append(scalarOffset[scalarOffset.count - 1] + character.unicodeScalars.count)
    }
    let entities = marks.compactMap { mark -> NLUPrediction.Entity? in
      let covered = String(characters[mark.start..<(mark.start + mark.length)])
      guard var entity = Self.decode(mark.mark, text: covered) else { return nil }
      entity.start = scalarOffset[mark.start]
      entity.end = scalarOffset[mark.start + mark.length]
      return entity
    }
    let judged = intent.split(separator: "/", maxSplits: 1).first.map(String.init) ?? intent
    self.init(text: text, intent: judged, entities: entities, file: file)
  }

  /// The example's language, as `robustness` reads it from its letters.
  public var language: Language { RobustnessExample(intent: intent, text: text).language }

  /// `(city)`, `(city:Praha)` or `{"entity": …}`: the entity it marks, offsets unset.
  static func decode(_ mark: String, text: String) -> NLUPrediction.Entity? {
    if mark.hasPrefix("(") {
      let inner = mark.dropFirst().dropLast()
      let parts = inner.split(separator: ":", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard let name = parts.first, !name.isEmpty else { return nil }
      return NLUPrediction.Entity(
        entity: name, value: parts.count > 1 ? parts[1] : text, start: 0, end: 0,
        valueStated: parts.count > 1)
    }
    guard let object = try? JSONParser.parse(Data(utf8Of: mark)),
      let name = object["entity"]?.stringValue, !name.isEmpty
    else { return nil }
    let value = object["value"].map(NLUPrediction.text(of:))
    return NLUPrediction.Entity(
      entity: name, value: value ?? text, role: object["role"]?.stringValue,
      group: object["group"]?.stringValue, start: 0, end: 0, valueStated: value != nil)
  }
}
