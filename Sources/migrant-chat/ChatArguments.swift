import MigrantChatCore

/// The chat's options as plain values, whichever parser read them.
///
/// `ChatOptions` (swift-argument-parser) declares the options, their help and
/// their errors. Most starts give it nothing or a few long options
/// (`migrant-chat`, `migrant-chat --offline --lang uk`), and swift-argument-parser's
/// first parse costs about a third of a start (it reflects every option's
/// property wrapper, and the Swift runtime's first look-up of each conformance
/// walks all 7,000 of this binary's records; see BENCHMARKS.md). `quickParse`
/// reads that common case by hand. It takes only what it is sure of and
/// answers nil for anything else (help, completion scripts, a short option, an
/// option given twice, a value it would refuse), which then goes to
/// swift-argument-parser, so every message and error is the one it gives.
/// `ChatArgumentsTests` checks that both parsers agree wherever `quickParse` answers.
struct ChatArguments: Equatable {
  var server: String?
  var webhookPath: String?
  var offline = false
  var record: String?
  var offlineFallback = OfflineFallback.auto
  var dataAPI: String?
  var lang: Language?
  var sender: String?
  var startMessage = "/start"
  var color = ColorChoice.auto
  var json = false
  var timeout: Timeout?
  var insecure = false
  var noHistory = false
  var resume = false
  var inspect = false
  var accessible = false
  var bell = false
  var noRewrite = false
  var label: String?
  var channel = ChannelChoice()

  /// The options of the chat read by hand: long options, each at most once,
  /// `--name value` (a value that does not start with "-") or `--name=value` (not
  /// empty). Nil when anything is outside that, or a value is not valid.
  static func quickParse(_ arguments: [String]) -> ChatArguments? {
    var result = ChatArguments()
    // An array: a `Set<Substring>` costs the runtime's look-up of `Hashable` (0.1 ms).
    var seen: [Substring] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("--") else { return nil }
      var name = argument.dropFirst(2)
      var value: String?
      if let equals = name.firstIndex(of: "=") {
        value = String(name[name.index(after: equals)...])
        name = name[..<equals]
        // swift-argument-parser reads `--server=` as a missing value.
        guard value?.isEmpty == false else { return nil }
      }
      guard !seen.contains(name) else { return nil }
      seen.append(name)
      if result.setFlag(name) {
        guard value == nil else { return nil }
        continue
      }
      if value == nil {
        guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
        value = arguments[index]
        index += 1
      }
      guard let value, result.set(name, to: value) else { return nil }
    }
    return result
  }

  /// Sets the flag `name`; false when there is no such flag.
  private mutating func setFlag(_ name: Substring) -> Bool {
    switch name {
    case "offline": offline = true
    case "json": json = true
    case "insecure": insecure = true
    case "no-history": noHistory = true
    case "resume": resume = true
    case "inspect": inspect = true
    case "accessible": accessible = true
    case "bell": bell = true
    case "no-rewrite": noRewrite = true
    default: return false
    }
    return true
  }

  /// Sets the option `name`; false when there is no such option or the value is refused.
  private mutating func set(_ name: Substring, to value: String) -> Bool {
    switch name {
    case "server": server = value
    case "webhook-path": webhookPath = value
    case "channel":
      guard let checked = try? ArgumentCheck.channels(value) else { return false }
      channel.channels = checked
    case "socket-path": channel.socketPath = value
    case "record": record = value
    case "label": label = value
    case "data-api": dataAPI = value
    case "sender": sender = value
    case "start-message": startMessage = value
    case "lang":
      guard let checked = try? ArgumentCheck.language(value) else { return false }
      lang = checked
    case "color":
      guard let checked = try? ArgumentCheck.color(value) else { return false }
      color = checked
    case "offline-fallback":
      guard let checked = try? ArgumentCheck.offlineFallback(value) else { return false }
      offlineFallback = checked
    case "timeout":
      guard let checked = try? ArgumentCheck.timeout(value) else { return false }
      timeout = checked
    default: return false
    }
    return true
  }
}

extension ChatArguments {
  /// What swift-argument-parser read.
  init(_ command: ChatOptions) {
    server = command.bot.server
    webhookPath = command.bot.webhookPath
    offline = command.offline
    record = command.record
    offlineFallback = command.offlineFallbackOption ?? offlineFallback
    dataAPI = command.dataAPI.dataApi
    lang = command.language.lang
    sender = command.sender
    startMessage = command.startMessageOption ?? startMessage
    color = command.colorOption ?? color
    json = command.json
    timeout = command.network.timeout
    insecure = command.network.insecure
    noHistory = command.noHistory
    resume = command.resume
    inspect = command.inspect
    accessible = command.accessibility.accessible
    label = command.label
    bell = command.bell
    noRewrite = command.noRewrite
    channel = command.bot.channelChoice
  }
}
