import Spearal

/// The values the Java reference encoded, rebuilt in Swift, by vector name.
enum DescribedValues {
    static let personClass = "org.spearal.samples.springangular.data.Person"

    static func naruto() -> SpearalBean {
        SpearalBean(className: personClass, properties: [
            ("description", .string("Konoha")), ("id", .integral(1)),
            ("imageUrl", .null), ("name", .string("Uzumaki Naruto")),
        ])
    }

    /// Naruto and Sasuke, each the other's worst enemy.
    static func enemies() -> SpearalBean {
        let naruto = naruto()
        let sasuke = SpearalBean(className: personClass, properties: [
            ("description", .string("Missing-nin")), ("id", .integral(4)),
            ("imageUrl", .null), ("name", .string("Uchiha Sasuke")),
        ])
        naruto["worstEnemy"] = .bean(sasuke)
        sasuke["worstEnemy"] = .bean(naruto)
        return naruto
    }

    /// The value described by vector `name`, or `nil` for a vector this table does not know.
    static func value(named name: String) -> SpearalValue? {
        switch name {
        case "null": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "int_0": return .integral(0)
        case "int_minus_1": return .integral(-1)
        case "int_127": return .integral(127)
        case "int_128": return .integral(128)
        case "int_65535": return .integral(65535)
        case "int_min_2p31": return .integral(-2_147_483_648)
        case "long_2p53": return .integral(9_007_199_254_740_992)
        case "double_3_5": return .floating(3.5)
        case "double_0_1": return .floating(0.1)
        case "double_1_0": return .floating(1.0)
        case "double_minus_1_25": return .floating(-1.25)
        case "double_pi": return .floating(3.141592653589793)
        case "string_empty": return .string("")
        case "string_hello_accent": return .string("héllo")
        case "list_repeated_string": return .collection(SpearalList([.string("spearal"), .string("spearal")]))
        case "byte_array_123": return .byteArray(SpearalBytes([1, 2, 3]))
        case "list_1_a_null": return .collection(SpearalList([.integral(1), .string("a"), .null]))
        case "map_a_1": return .map(SpearalMap([(.string("a"), .integral(1))]))
        case "person": return .bean(naruto())
        case "person_partial_id_name":
            return .bean(SpearalBean(className: personClass, properties: [("id", .integral(1)), ("name", .string("Uzumaki Naruto"))]))
        case "person_cycle_worst_enemies": return .bean(enemies())
        case "big_integer_1e21": return .bigIntegral("1000000000000000000000")
        case "date_2014_11_20":
            return .dateTime(SpearalDateTime(year: 2014, month: 11, day: 20, hour: 10, minute: 30, second: 15, nanosecond: 123_000_000))
        case "enum_mr": return .enumValue(SpearalEnumConstant(className: "spearalref.Salutation", name: "MR"))
        case "list_empty": return .collection(SpearalList())
        case "list_same_person_twice":
            let person = SpearalValue.bean(naruto())
            return .collection(SpearalList([person, person]))
        case "empty_bean": return .bean(SpearalBean(className: "spearalref.EmptyBean"))
        default: return nil
        }
    }

    /// What decoding yields when it differs from the encoded value (integral doubles come back as integers).
    static func decoded(named name: String) -> SpearalValue? {
        name == "double_1_0" ? .integral(1) : value(named: name)
    }
}
