import Foundation
import Spearal
import Testing

@Suite("Printer")
struct PrinterTests {
    @Test("the worst-enemies cycle prints like the reference iOS client")
    func cyclePrintsLikeReferenceClient() throws {
        let data = Data(try ReferenceVectors.named("person_cycle_worst_enemies").bytes)

        let text = try SpearalPrinter().print(data)

        #expect(text == """
        #0 org.spearal.samples.springangular.data.Person {
        \tdescription: "Konoha",
        \tid: 1,
        \timageUrl: nil,
        \tname: "Uzumaki Naruto",
        \tworstEnemy: #1 org.spearal.samples.springangular.data.Person {
        \t\tdescription: "Missing-nin",
        \t\tid: 4,
        \t\timageUrl: nil,
        \t\tname: "Uchiha Sasuke",
        \t\tworstEnemy: @0
        \t}
        }
        """)
    }

    @Test("collections, maps, byte arrays, enums and dates print with their object indexes")
    func containersPrint() {
        let bytes = SpearalBytes([1, 2, 3])
        let value = SpearalValue.collection(SpearalList([
            .map(SpearalMap([(.string("a"), .integral(1))])),
            .byteArray(bytes), .byteArray(bytes),
            .enumValue(SpearalEnumConstant(className: "S", name: "MR")),
            .dateTime(SpearalDateTime(year: 2014, month: 11, day: 20, hour: 10, minute: 30, second: 15, nanosecond: 123_000_000)),
            .collection(SpearalList()),
        ]))

        let text = SpearalPrinter(indentation: "  ").print(value)

        #expect(text == """
        #0 [
          #1 {
            "a": 1
          },
          #2 [1, 2, 3],
          @2,
          S.MR,
          2014-11-20T10:30:15.123Z,
          #3 []
        ]
        """)
    }

    @Test("strings are escaped so a dump cannot be forged by its content")
    func stringsAreEscaped() {
        let value = SpearalValue.string("a\"b\nc\\d\u{7}")

        let text = SpearalPrinter().print(value)

        #expect(text == #""a\"b\nc\\d\u{7}""#)
    }

    @Test("a value's description is its dump")
    func descriptionIsDump() {
        let bean = SpearalBean(className: "P", properties: [("id", .integral(1))])

        #expect(SpearalValue.bean(bean).description == "#0 P {\n\tid: 1\n}")
    }
}
