import Foundation

/// The sample directory embedded in the binary, so cards work on first run.
///
/// Made-up offices in real cities with placeholder phone numbers; its JSON
/// says so in `sample` and `notice`, and the client says so wherever it shows
/// the directory's source.
public enum SampleDirectory {
  /// The payload, in the data API's `{"items": [...]}` format.
  public static var contactsPayload: Data { Data(PackageResources.contacts_json) }

  public static func contacts() -> [Contact] {
    ((try? ItemsPayloadDecoder.contacts(contactsPayload).items) ?? []).map { contact in
      var marked = contact
      marked.sample = true
      return marked
    }
  }
}
