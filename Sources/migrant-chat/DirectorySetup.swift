import Foundation
import MigrantChatCore
import MigrantChatIO

/// The contact directory as `chat` and `contacts` open it.
///
/// The data API comes from `--data-api`, else `MIGRANT_CHAT_DATA_API`, else
/// `data_api:` in the config file; without one there is no sync and the
/// cache (at first, the bundled sample) is all there is.
struct DirectorySetup {
  let directory: ContactDirectory
  /// To tell the user once: a rebuilt cache, unreadable favourites.
  let notices: [DirectoryNotice]
  let dataAPI: String?
  /// The guidance tables for the offline assistant; nil when no database opened.
  let guidanceStore: (any GuidanceStore)?

  init(
    flag: String?, environment: [String: String], config: ConfigFile, paths: AppPaths,
    timeout: Double, insecure: Bool, policy: RetryPolicy, l10n: Localizer
  ) throws(SetupFailure) {
    let files = DirectoryFiles.open(paths: paths)
    notices = files.notices
    var sync: DirectorySync?
    dataAPI = firstGiven(flag, environment["MIGRANT_CHAT_DATA_API"], config.dataAPI)
    if let url = dataAPI {
      do {
        let api = try CurlDataAPI(baseURL: url, timeout: timeout, insecure: insecure)
        sync = DirectorySync(
          api: api, store: files.store, guidance: files.guidance, policy: policy)
      } catch {
        throw SetupFailure(message: l10n(.invalidDataAPI, ["url": TerminalSanitizer.clean(url)]))
      }
    }
    directory = ContactDirectory(store: files.store, favourites: files.favourites, sync: sync)
    guidanceStore = files.guidance
  }
}

extension DirectorySetup {
  /// The guidance tree as cached (the sample until a sync), for the offline assistant.
  func guidanceTree() -> GuidanceTree {
    guard let guidanceStore else { return SampleGuidance.tree() }
    let tree = guidanceStore.tree()
    return tree.isEmpty ? SampleGuidance.tree() : tree
  }
}

/// A start-up problem, already in the user's language; the command exits with 2.
struct SetupFailure: Error {
  var message: String
}
