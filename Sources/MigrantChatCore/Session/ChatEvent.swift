/// Something that happened in the conversation, for the renderer to show.
public enum ChatEvent: Sendable, Hashable {
  /// The bot answered; some parts may have been left out (`problems`).
  case reply(BotReply)
  /// The bot answered with an empty list: a normal answer in Rasa.
  case noAnswer
  /// The turn failed; the conversation goes on.
  case failure(ChatError)
  /// The line could not be used; nothing was sent.
  case inputError(InputError)
  case notice(Notice)
  case languageChanged(Language)
  /// A setting or the sender id could not be saved; the chat goes on.
  case saveFailed(detail: String)
  case quit
}

public enum InputError: Sendable, Hashable {
  case noSuchChoice(number: Int, count: Int)
  case unknownLanguage(String)
}

public enum Notice: Sendable, Hashable {
  case help
  case currentLanguage(Language)
  case newConversation
  /// Ctrl-C at an empty prompt.
  case howToQuit
}
