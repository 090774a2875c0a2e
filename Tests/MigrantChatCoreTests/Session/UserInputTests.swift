import Testing

@testable import MigrantChatCore

@Suite struct UserInputTests {
  let choices = [
    Button(title: "Health insurance", payload: "/health"),
    Button(title: "Житло", payload: "/housing"),
  ]

  @Test func numbersPickButtons() {
    #expect(UserInput(line: "1", choices: choices) == .choice(choices[0]))
    #expect(UserInput(line: "№2", choices: choices) == .choice(choices[1]))
    // `/slots` is the client's own: words after it do not send it to the bot.
    #expect(UserInput(line: "/slots x", choices: choices) == .command(.slots))
    #expect(UserInput(line: " 2 ", choices: choices) == .choice(choices[1]))
  }

  /// A payload typed (`/health`, a Rasa e2e file's line) goes to the bot as it is: never
  /// read as a title ("Health insurance") nor asked about; one equal to a shown button's
  /// payload is that button.
  @Test func payloadsAreSentAsTheyAreOrChooseTheirButton() {
    let buttons = [
      Button(title: "Health insurance", payload: "/health_insurance"),
      Button(title: "Work", payload: "/work"),
    ]
    #expect(UserInput(line: "/health", choices: buttons) == .text("/health"))
    #expect(UserInput(line: "/healt_insurance", choices: buttons) == .text("/healt_insurance"))
    #expect(UserInput(line: "/work", choices: buttons) == .choice(buttons[1]))
    #expect(UserInput(line: " /health_insurance ", choices: buttons) == .choice(buttons[0]))
    // A client command is still one; `//` still sends the rest as it is.
    #expect(UserInput(line: "/help", choices: buttons) == .command(.help))
    #expect(UserInput(line: "//help", choices: buttons) == .text("/help"))
  }

  /// A transcript's line is taken literally: a number, a title or a payload names a
  /// button exactly; nothing else is read as one (no close title, no start of one, no
  /// other keyboard layout), and it is sent as written.
  @Test func literalLinesNameButtonsOnlyExactly() {
    let buttons = [
      Button(title: "Health insurance", payload: "/health"),
      Button(title: "Жильё", payload: "/housing"),
    ]
    let literal = { (line: String) in UserInput(literal: line, choices: buttons) }
    #expect(literal("2") == .choice(buttons[1]))
    #expect(literal("3") == .noSuchChoice(number: 3, count: 2))
    #expect(literal("health insurance") == .choice(buttons[0]))
    #expect(literal("жилье") == .choice(buttons[1]))
    #expect(literal("/housing") == .choice(buttons[1]))
    #expect(literal("Health insurence") == .text("Health insurence"))
    #expect(literal("health") == .text("health"))
    #expect(literal(";bkmt") == .text(";bkmt"), "Жильё on the English layout")
    #expect(literal("/health_x") == .text("/health_x"))
    #expect(literal("/lang ru") == .command(.language("ru")))
    #expect(UserInput(literal: "2", choices: []) == .text("2"))
    // The same lines typed in the chat are read as people mean them.
    #expect(
      UserInput(line: "Health insurence", choices: buttons) == .nearChoice(buttons[0], number: 1))
    #expect(
      UserInput(line: ";bkmt", choices: buttons) == .layoutChoice(buttons[1], readAs: "жилье"))
  }

  @Test func numbersOutOfRangeAreErrors() {
    #expect(UserInput(line: "3", choices: choices) == .noSuchChoice(number: 3, count: 2))
    #expect(UserInput(line: "0", choices: choices) == .noSuchChoice(number: 0, count: 2))
    #expect(UserInput(line: "-1", choices: choices) == .noSuchChoice(number: -1, count: 2))
  }

  /// Titles typed the way people type them (#14): punctuation and case do not count,
  /// ё is е, every apostrophe is alike, and a number may come in brackets or with a dot.
  @Test(arguments: [
    ("yes employed", 0), ("Yes, employed!", 0), ("да работаю", 1), ("Да — работаю", 1),
    ("жилье", 2), ("ЖИЛЬЕ", 2), ("Зв’язатися", 3), ("звʼязатися", 3), ("Зв`язатися", 3),
    ("2.", 1), ("[2]", 1), ("#2", 1), ("(3)", 2), ("4)", 3), (" [ 1 ] ", 0),
  ])
  func titlesAsPeopleTypeThem(typed: String, index: Int) {
    let buttons = [
      Button(title: "Yes, employed", payload: "/employed"),
      Button(title: "Да, работаю", payload: "/works"),
      Button(title: "Жильё", payload: "/housing"),
      Button(title: "Зв'язатися", payload: "/contact"),
    ]
    #expect(UserInput(line: typed, choices: buttons) == .choice(buttons[index]))
  }

  /// One edit from a title (two from nine letters): asked about, not sent; short words
  /// and lines close to two titles alike are plain text.
  /// The start of one title, two words or more, picks it; one word is text for the bot.
  @Test func theStartOfATitlePicksIt() {
    let choices = [
      Button(title: "Сохранить эти шаги в мой список дел", payload: "/save"),
      Button(title: "Назад", payload: "/back"),
      Button(title: "Health insurance", payload: "/hi"),
      Button(title: "Health insurance for children", payload: "/hic"),
    ]
    #expect(UserInput(line: "сохранить эти шаги", choices: choices) == .choice(choices[0]))
    #expect(UserInput(line: "Сохранить эти", choices: choices) == .choice(choices[0]))
    // One word that starts one title is asked about; one that starts none is text.
    #expect(UserInput(line: "сохранить", choices: choices) == .nearChoice(choices[0], number: 1))
    #expect(UserInput(line: "страховка", choices: choices) == .text("страховка"))
    // Exactly one title must start so: "health insurance" is a whole title, chosen as such.
    #expect(UserInput(line: "health insurance", choices: choices) == .choice(choices[2]))
    #expect(UserInput(line: "health", choices: choices) == .text("health"), "two titles start so")
    #expect(UserInput(line: "мой список", choices: choices) == .text("мой список"))
  }

  @Test func closeToATitleIsAskedAbout() {
    #expect(
      UserInput(line: "helth insurance", choices: choices) == .nearChoice(choices[0], number: 1))
    #expect(UserInput(line: "житлоо", choices: choices) == .nearChoice(choices[1], number: 2))
    #expect(UserInput(line: "hello", choices: choices) == .text("hello"))
    let short = [Button(title: "Yes", payload: "/y"), Button(title: "No", payload: "/n")]
    #expect(UserInput(line: "ye", choices: short) == .text("ye"))
    let twins = [Button(title: "Card A", payload: "/a"), Button(title: "Card B", payload: "/b")]
    #expect(UserInput(line: "card c", choices: twins) == .text("card c"))
    #expect(UserInput(line: "1.5", choices: choices) == .text("1.5"))
  }

  @Test func numbersWithoutAnyButtonsAreText() {
    #expect(UserInput(line: "5", choices: []) == .text("5"))
  }

  @Test func titlesMatchCaseInsensitivelyAndNormalized() {
    #expect(UserInput(line: "health INSURANCE", choices: choices) == .choice(choices[0]))
    #expect(UserInput(line: "ЖИТЛО", choices: choices) == .choice(choices[1]))
    let decomposed = [Button(title: "Caf\u{E9}", payload: "/cafe")]
    #expect(UserInput(line: "cafe\u{301}", choices: decomposed) == .choice(decomposed[0]))
  }

  @Test func commands() {
    #expect(UserInput(line: "/help", choices: []) == .command(.help))
    #expect(UserInput(line: "/HELP", choices: []) == .command(.help))
    #expect(UserInput(line: "/restart", choices: []) == .command(.restart))
    #expect(UserInput(line: "/new", choices: []) == .command(.newConversation))
    #expect(UserInput(line: "/lang", choices: []) == .command(.language(nil)))
    #expect(UserInput(line: "/lang uk", choices: []) == .command(.language("uk")))
    #expect(UserInput(line: "/quit", choices: []) == .command(.quit))
    #expect(UserInput(line: "/exit", choices: []) == .command(.quit))
  }

  @Test func otherSlashTextGoesToTheBot() {
    #expect(UserInput(line: "/greet", choices: []) == .text("/greet"))
    #expect(UserInput(line: #"/faq_item{"id":10}"#, choices: []) == .text(#"/faq_item{"id":10}"#))
    #expect(UserInput(line: "//help", choices: []) == .text("/help"))
    #expect(UserInput(line: "/restart now", choices: []) == .text("/restart now"))
  }

  @Test func blankLinesAreEmpty() {
    #expect(UserInput(line: "   ", choices: choices) == .empty)
    #expect(UserInput(line: "", choices: choices) == .empty)
  }
}

/// Button titles typed with the other keyboard layout on (#34).
@Suite struct UserInputLayoutTests {
  let russian = ["Карта сотрудника", "Медицинская страховка", "Поиск жилья", "Поиск работы"]
    .map { Button(title: $0, payload: "/" + $0) }
  let english = ["Employee card", "Health insurance", "Finding accommodation"]
    .map { Button(title: $0) }

  @Test(arguments: [
    ("vtlbwbycrfz cnhf[jdrf", 1, "медицинская страховка"),
    ("Vtlbwbycrfz cnhf[jdrf", 1, "Медицинская страховка"),
    ("gjbcr ;bkmz", 2, "поиск жилья"),
    // The start of a title, two words or more; two words of one title.
    ("cnhf[jdrf vtlbwbycrfz", 1, "страховка медицинская"),
    ("gjbcr hf,jns", 3, "поиск работы"),
  ])
  func russianTypedOnTheLatinLayout(typed: String, index: Int, reading: String) {
    #expect(
      UserInput(line: typed, choices: russian) == .layoutChoice(russian[index], readAs: reading))
  }

  @Test func latinTypedOnTheCyrillicLayout() {
    #expect(
      UserInput(line: "руфдер штыгкфтсу", choices: english)
        == .layoutChoice(english[1], readAs: "health insurance"))
    // One word right, one switched: read chunk by chunk.
    #expect(
      UserInput(line: "аштвштп accommodation", choices: english)
        == .layoutChoice(english[2], readAs: "finding accommodation"))
  }

  /// Text in the other layout is never meant as typed: words that name one title,
  /// in another form or by their start, choose it (a word typed right is sent).
  @Test func wordsOfOneTitleInTheOtherLayoutChooseIt() {
    #expect(
      UserInput(line: ";bkmt", choices: russian) == .layoutChoice(russian[2], readAs: "жилье"))
    #expect(UserInput(line: "жилье", choices: russian) == .text("жилье"))
    let job = [Button(title: "Finding a job"), Button(title: "Finding accommodation")]
    #expect(UserInput(line: "аштв ощи", choices: job) == .layoutChoice(job[0], readAs: "find job"))
    // "поиск" is in two titles: names neither.
    #expect(UserInput(line: "gjbcr", choices: russian) == .text("gjbcr"))
  }

  @Test func aSwitchedTitleWithATypoIsAskedAbout() {
    #expect(
      UserInput(line: "vtlbebycrfz cnhf[jdrf", choices: russian)
        == .nearChoice(russian[1], number: 2))
  }

  @Test func wordsThatAreNotTitlesInEitherLayoutAreText() {
    for line in ["job", "hello there", "ghbdtn", "ok"] {
      #expect(UserInput(line: line, choices: russian) == .text(line), "\(line)")
    }
  }
}

/// Found by testers (#34): a Ukrainian one-word answer typed on the Latin layout,
/// and commands typed with the Cyrillic layout on.
@Suite struct UserInputLayoutFoundTests {
  @Test func aShortAnswerStartingOneTitleIsChosen() {
    let answers = [Button(title: "Так, я працюю"), Button(title: "Ні, ще ні")]
    #expect(UserInput(line: "nfr", choices: answers) == .layoutChoice(answers[0], readAs: "так"))
    #expect(UserInput(line: "Ys", choices: answers) == .layoutChoice(answers[1], readAs: "Ні"))
    // One letter is not enough.
    #expect(UserInput(line: "z", choices: [Button(title: "Я працюю")]) == .text("z"))
  }

  @Test func commandsTypedOnTheCyrillicLayout() {
    #expect(UserInput(line: "/сщтефсеі брно", choices: []) == .command(.contacts("брно")))
    #expect(UserInput(line: ".сщтефсеі брно", choices: []) == .command(.contacts("брно")))
    #expect(UserInput(line: "/дфтп ru", choices: []) == .command(.language("ru")))
    #expect(UserInput(line: "/куыефке", choices: []) == .command(.restart))
    // Not a command in either layout: text for the bot, as typed.
    #expect(UserInput(line: "/привет", choices: []) == .text("/привет"))
    #expect(UserInput(line: ".net", choices: []) == .text(".net"))
  }
}
