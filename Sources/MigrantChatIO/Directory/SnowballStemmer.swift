internal import CStemmer
import MigrantChatCore
import Synchronization

/// English and Russian stems from Snowball (libstemmer); Ukrainian from the
/// core's `UkrainianStemmer`, which Snowball 2.2 does not have.
///
/// A libstemmer stemmer is not thread-safe: each is used under a lock. Only
/// query words are stemmed, a few per search, so the lock is never contended
/// for long.
public final class SnowballStemmer: WordStemmer {
  public static let shared = SnowballStemmer()

  /// The libstemmer handles by algorithm name, created on first use.
  private let handles = Mutex<[String: OpaquePointer]>([:])

  private init() {}

  public func stem(_ word: String, language: StemLanguage) -> String {
    switch language {
    case .ukrainian: return UkrainianStemmer.stem(word)
    case .english: return stem(word, algorithm: "english")
    case .russian: return stem(word, algorithm: "russian")
    }
  }

  private func stem(_ word: String, algorithm: String) -> String {
    // Snowball's stemmers are for words, not pages: a very long "word" is returned as is.
    guard !word.isEmpty, word.utf8.count <= 64 else { return word }
    return handles.withLock { handles in
      if handles[algorithm] == nil {
        // Owned by this object for the life of the process (it is a singleton).
        handles[algorithm] = sb_stemmer_new(algorithm, "UTF_8")
      }
      guard let stemmer = handles[algorithm] else { return word }
      let bytes = Array(word.utf8)
      // The result points into the stemmer's own buffer, valid until its next call: copied here.
      guard
        let result = bytes.withUnsafeBufferPointer({ buffer in
          sb_stemmer_stem(stemmer, buffer.baseAddress, Int32(buffer.count))
        })
      else { return word }
      let length = Int(sb_stemmer_length(stemmer))
      return String(decoding: UnsafeBufferPointer(start: result, count: length), as: UTF8.self)
    }
  }
}
