import Foundation
import Spearal
import Testing

@Suite("Property filter")
struct PropertyFilterTests {
    static let naruto = PersonStruct(id: 1, name: "Uzumaki Naruto", description: "Konoha", imageUrl: nil)

    @Test("a filter keeping id and name gives spearal-java's partial Person")
    func filterKeepsListedProperties() throws {
        var filter = SpearalPropertyFilter()
        filter.keep(["id", "name"], of: DescribedValues.personClass)

        let data = try SpearalEncoder(propertyFilter: filter).encode(Self.naruto)

        #expect(Hex.string(data) == (try ReferenceVectors.named("person_partial_id_name").hex))
    }

    @Test("unfilterable properties are kept even when the header does not list them")
    func unfilterablePropertiesAreKept() throws {
        var filter = try SpearalPropertyFilter(headerValues: ["\(DescribedValues.personClass)#name"])
        filter.markUnfilterable(["id"], of: DescribedValues.personClass)

        let data = try SpearalEncoder(propertyFilter: filter).encode(Self.naruto)

        #expect(Hex.string(data) == (try ReferenceVectors.named("person_partial_id_name").hex))
    }

    @Test("classes without an entry keep all their properties")
    func otherClassesAreUntouched() throws {
        var filter = SpearalPropertyFilter()
        filter.keep(["id"], of: "some.OtherClass")

        let data = try SpearalEncoder(propertyFilter: filter).encode(Self.naruto)

        #expect(Hex.string(data) == (try ReferenceVectors.named("person").hex))
    }

    @Test("header values parse with spaces and format one value per class")
    func headerValuesParseAndFormat() throws {
        let parsed = try SpearalPropertyFilter.parseHeaderValue(" org.Person # name , description ")
        var filter = SpearalPropertyFilter()
        filter.keep(["name", "description"], of: "org.Person")
        filter.keep(["title"], of: "Announcement")

        let values = filter.headerValues

        #expect(parsed.className == "org.Person")
        #expect(parsed.properties == ["name", "description"])
        #expect(values == ["Announcement#title", "org.Person#description,name"])
        #expect(try SpearalPropertyFilter(headerValues: values) == filter)
    }

    @Test("a header value without a class name is rejected")
    func headerWithoutClassIsRejected() {
        #expect(throws: SpearalError.invalidPropertyFilter("#id")) {
            try SpearalPropertyFilter.parseHeaderValue("#id")
        }
    }
}
