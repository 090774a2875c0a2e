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

  /// Keys whose table entries are plural forms (`key[one] = ...`).
  public var isPlural: Bool {
    switch self {
    case .problemsSkipped, .turnsFailed: true
    default: false
    }
  }
}
