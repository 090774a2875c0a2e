import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct TodoListTests {
  static let today = day("2026-11-24")
  static let now = Date(timeIntervalSince1970: 1_795_000_000)

  static func task(
    _ id: Int64, _ title: String, due: String? = nil, guide: (Int64, String)? = nil,
    done: Bool = false, contacts: [Int64] = []
  ) -> TodoTask {
    TodoTask(
      id: id,
      draft: TodoDraft(
        title: title, due: due.flatMap { DayDate(iso: $0) }, contacts: contacts,
        guideID: guide?.0, guideTitle: guide?.1),
      completedAt: done ? now : nil, createdAt: now, updatedAt: now)
  }

  static func sample(_ language: Language) -> [TodoTask] {
    let guide: (Int64, String) =
      switch language {
      case .en: (10, "Employee card")
      case .ru: (10, "Карта сотрудника")
      case .uk: (10, "Картка працівника")
      }
    return [
      task(
        1, "Book an appointment at the Ministry of the Interior office", due: "2026-12-01",
        guide: guide),
      task(2, "Give your fingerprints", guide: guide),
      task(3, "Pay the administrative fee", due: "2026-11-20"),
      task(4, "Buy a SIM card", done: true),
      task(5, "Register the children at school", due: "2026-11-25"),
      task(6, "Renew the insurance", due: "2026-11-24", guide: (20, "Health insurance")),
    ]
  }

  @Test func overdueFirstThenByDueDateGroupedByGuide() {
    let list = TodoList(Self.sample(.en), filter: .open, today: Self.today)
    #expect(list.groups.map(\.title) == [nil, "Health insurance", "Employee card"])
    #expect(list.groups[0].tasks.map(\.id) == [3, 5])
    #expect(list.tasks.map(\.id) == [3, 5, 6, 1, 2])
    #expect(TodoList(Self.sample(.en), filter: .done, today: Self.today).tasks.map(\.id) == [4])
    #expect(TodoList(Self.sample(.en), filter: .all, today: Self.today).tasks.count == 6)
    let open = Self.sample(.en).filter { !$0.isDone }.compactMap(\.due)
    let dueSoon = TodoList.dueSoon(dates: open, today: Self.today)
    #expect(dueSoon.overdue == 1 && dueSoon.soon == 3)
  }

  @Test(arguments: [Language.en, .ru, .uk], [40, 80])
  func listGolden(language: Language, width: Int) {
    let renderer = Renderer(width: width, color: false, language: language)
    var text = renderer.render(
      list: TodoList(Self.sample(language), filter: .all, today: Self.today))
    text += "---\n" + renderer.render(.todo(.dueSoon(overdue: 1, soon: 3))).stderr
    text += "---\n" + renderer.render(.todo(.added([Self.sample(language)[0]], skipped: 1))).stdout
    text +=
      "---\n"
      + renderer.render(
        .todo(.shown(Self.sample(language)[0], contacts: [], today: Self.today))
      ).stdout
    text += "---\n" + renderer.render(list: TodoList([], filter: .open, today: Self.today))
    text += "---\n" + renderer.render(.inputError(.badDate("32.13."))).stderr
    text += "---\n" + renderer.render(.report(.askText(guideTitle: "Employee card"))).stdout
    expectGolden(text, named: "todo-\(language.rawValue)-\(width)")
  }
}
