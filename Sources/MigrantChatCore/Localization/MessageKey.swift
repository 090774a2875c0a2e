/// The keys of the locale tables, one per user-facing string.
///
/// Tests check that each key is in every table with the same placeholders,
/// and that no table has a key missing here.
public enum MessageKey: String, Sendable, CaseIterable {
  // Chat
  case prompt = "prompt"
  case banner = "banner"
  case waiting = "waiting"
  case help = "help"
  case noAnswer = "no_answer"
  case cancelled = "cancelled"
  case howToQuit = "how_to_quit"
  case newConversation = "new_conversation"
  case currentLanguage = "language.current"
  case languageChanged = "language.changed"
  case unknownLanguage = "language.unknown"
  case noSuchButton = "button.no_such"

  // Message parts
  case labelImage = "label.image"
  case labelAttachment = "label.attachment"
  case labelContacts = "label.contacts"
  case labelData = "label.data"
  case problemsSkipped = "problems.skipped"
  case problemNotAnObject = "problem.not_an_object"
  case problemWrongType = "problem.wrong_type"

  // Contact cards and the directory
  case labelPhone = "label.phone"
  case labelEmail = "label.email"
  case labelWeb = "label.web"
  case labelFacebook = "label.facebook"
  case labelHours = "label.hours"
  case labelMap = "label.map"
  case labelFavourite = "label.favourite"
  case contactMissing = "contact.missing"
  case contactMissingCLI = "contact.missing_cli"
  case contactBadID = "contact.bad_id"
  case contactNeedsID = "contact.needs_id"
  case contactsNoneFound = "contacts.none_found"
  case contactsEmpty = "contacts.empty"
  case contactsMore = "contacts.more"
  case favouriteAdded = "favourite.added"
  case favouriteRemoved = "favourite.removed"
  case favouriteNotFavourite = "favourite.not_favourite"
  case directorySample = "directory.sample"
  case directoryRebuilt = "directory.rebuilt"
  case directoryCacheUnavailable = "directory.cache_unavailable"
  case directoryFavouritesUnavailable = "directory.favourites_unavailable"
  case directoryStorageFailed = "directory.storage_failed"

  // Syncing the directory
  case syncing = "sync.syncing"
  case syncUpdated = "sync.updated"
  case syncSkippedItems = "sync.skipped_items"
  case syncUnchanged = "sync.unchanged"
  case syncNotDue = "sync.not_due"
  case syncNotConfigured = "sync.not_configured"
  case syncUnreachable = "sync.unreachable"
  case syncHTTPStatus = "sync.http_status"
  case syncTooLarge = "sync.too_large"
  case syncBadPayload = "sync.bad_payload"
  case netRefused = "net.refused"
  case netNoHost = "net.no_host"
  case netTimeout = "net.timeout"
  case netTLS = "net.tls"
  case netRedirect = "net.redirect"
  case payloadNotJSON = "payload.not_json"
  case payloadNotItems = "payload.not_items"
  case payloadNotTableList = "payload.not_table_list"

  // Errors talking to the bot
  case errorConnectionRefused = "error.connection_refused"
  case errorHostNotFound = "error.host_not_found"
  case errorTimeout = "error.timeout"
  case errorHTTPStatus = "error.http_status"
  case errorHTTPStatusBody = "error.http_status_body"
  case errorBodyTooLarge = "error.body_too_large"
  case errorNotJSON = "error.not_json"
  case errorNotAnArray = "error.not_an_array"
  case errorRedirectRefused = "error.redirect_refused"
  case errorTooManyRedirects = "error.too_many_redirects"
  case errorTLS = "error.tls"
  case errorNetwork = "error.network"

  // Start-up and settings
  case noServer = "setup.no_server"
  case invalidServer = "setup.invalid_server"
  case invalidLanguage = "setup.invalid_language"
  case invalidColor = "setup.invalid_color"
  case invalidTimeout = "setup.invalid_timeout"
  case invalidDataAPI = "setup.invalid_data_api"
  case invalidOutputFormat = "setup.json_and_csv"
  case configUnreadable = "setup.config_unreadable"
  case insecureWarning = "setup.insecure_warning"
  case saveFailed = "setup.save_failed"
  case turnsFailed = "summary.turns_failed"

  // The config file's problems
  case configCannotRead = "config.cannot_read"
  case configNotYAML = "config.not_yaml"
  case configNotMapping = "config.not_mapping"
  case configNotSingleValue = "config.not_single_value"
  case configBadTimeout = "config.bad_timeout"
  case configUnknownKey = "config.unknown_key"
  case configLine = "config.line"

  // --help
  case helpAbstract = "cli.abstract"
  case helpChatAbstract = "cli.chat_abstract"
  case helpChatDiscussion = "cli.chat_discussion"
  case helpServer = "cli.server"
  case helpWebhookPath = "cli.webhook_path"
  case helpLang = "cli.lang"
  case helpSender = "cli.sender"
  case helpStartMessage = "cli.start_message"
  case helpColor = "cli.color"
  case helpJSON = "cli.json"
  case helpTimeout = "cli.timeout"
  case helpNoHistory = "cli.no_history"
  case helpInsecure = "cli.insecure"
  case helpDataAPI = "cli.data_api"
  case helpContactsAbstract = "cli.contacts_abstract"
  case helpContactsDiscussion = "cli.contacts_discussion"
  case helpContactsList = "cli.contacts_list"
  case helpContactsSearch = "cli.contacts_search"
  case helpContactsShow = "cli.contacts_show"
  case helpContactsSync = "cli.contacts_sync"
  case helpQuery = "cli.query"
  case helpContactID = "cli.contact_id"
  case helpCSV = "cli.csv"
  case helpContactsJSON = "cli.contacts_json"
  case helpLimit = "cli.limit"

  /// Keys whose table entries are plural forms (`key[one] = ...`).
  public var isPlural: Bool {
    switch self {
    case .problemsSkipped, .turnsFailed, .contactsMore, .syncUpdated, .syncSkippedItems: true
    default: false
    }
  }
}
