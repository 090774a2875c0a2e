import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct ContactExportTests {
  @Test func csvQuotesAndDefusesFormulas() {
    #expect(ContactExport.csvField("plain") == "plain")
    #expect(ContactExport.csvField("a, b") == "\"a, b\"")
    #expect(ContactExport.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(ContactExport.csvField("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
    #expect(ContactExport.csvField("@SUM(A1)") == "'@SUM(A1)")
    #expect(ContactExport.csvField("-2+3+cmd|' /C calc'!A0") == "'-2+3+cmd|' /C calc'!A0")
    // Phone numbers and negative numbers stay as they are.
    #expect(ContactExport.csvField("+420 500 000 001") == "+420 500 000 001")
    #expect(ContactExport.csvField("-12.5") == "-12.5")
  }

  @Test func csvRowFollowsTheHeader() {
    var contact = Contact(
      id: 138503, name: "Centre, Brno",
      localized: [.uk: Contact.LocalizedAttributes(name: "Центр")])
    contact.city = "Brno"
    contact.phone = "+420 1"
    contact.latitude = 49.5
    contact.longitude = 16.25
    let row = ContactExport.csvRow(contact, language: .en, favourite: true)
    #expect(
      row
        == "138503,\"Centre, Brno\",,Brno,,+420 1,,,,,49.5,16.25,https://www.openstreetmap.org/?mlat=49.5&mlon=16.25,yes,no"
    )
    // 15 columns, and one comma inside the quoted name.
    #expect(row.split(separator: ",", omittingEmptySubsequences: false).count == 16)
    #expect(ContactExport.csvHeader.split(separator: ",").count == 15)
    contact.sample = true
    #expect(ContactExport.csvRow(contact, language: .en, favourite: false).hasSuffix(",no,yes"))
    #expect(ContactExport.object(contact, language: .en, favourite: false)["sample"] == .bool(true))
    #expect(
      ContactExport.csvRow(contact, language: .uk, favourite: false).hasPrefix("138503,Центр,"))
  }

  @Test func jsonHasTheLocalizedNameAllNamesAndNoControlCharacters() {
    var contact = Contact(id: 7, name: "Office\u{1B}[2J", localized: [.ru: .init(name: "Офис")])
    contact.email = "a@b.example"
    let object = ContactExport.object(contact, language: .ru, favourite: false)
    #expect(object["name"]?.stringValue == "Офис")
    #expect(object["names"]?["en"]?.stringValue == "Office")
    #expect(object["email"]?.stringValue == "a@b.example")
    #expect(object["favourite"] == .bool(false))
    #expect(object["phone"] == nil)
  }
}
