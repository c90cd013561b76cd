import Testing
@testable import IntranetServer

/// Every setting is read one way (`SettingsReader`): the same spellings for every flag, the same
/// kind of message for every refusal.
@Suite("Reading settings")
struct SettingsReaderTests {
    static let flags: [(variable: String, read: @Sendable (AppConfiguration) -> Bool)] = [
        ("INTRANET_SECURE_COOKIES", { $0.secureCookies }), ("INTRANET_ANONYMOUS_READ", { $0.allowsAnonymousReading }),
        ("INTRANET_REQUIRE_SIGNATURE", { $0.requiresSignature }),
    ]

    @Test("every flag takes true/false, 1/0 and yes/no in any case, and refuses anything else naming itself", arguments: 0..<3)
    func flagsReadAlike(index: Int) throws {
        let (variable, read) = Self.flags[index]
        for (text, value) in [("true", true), ("TRUE", true), ("1", true), ("Yes", true), ("false", false), ("0", false), ("no", false)] {
            #expect(read(try AppConfiguration.fromEnvironment([variable: text])) == value, "\(variable)=\(text)")
        }
        let error = #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment([variable: "maybe"]) }
        #expect(error?.description == "\(variable) must be true or false, not 'maybe'")
    }

    @Test("an empty setting keeps the default; a bad one names the setting, the rule and the start of the value")
    func refusals() throws {
        #expect(try AppConfiguration.fromEnvironment(["PORT": "", "LOG_LEVEL": ""]).port == 8080)
        let port = #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["PORT": "70000"]) }
        #expect(port?.description == "PORT must be a port number from 0 to 65535, not '70000'")
        let level = #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["LOG_LEVEL": "loud"]) }
        #expect(level?.description == "LOG_LEVEL must be trace, debug, info, notice, warning, error or critical, not 'loud'")
        let long = String(repeating: "x", count: 100)
        let size = #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["MAX_BODY_SIZE": long]) }
        #expect(size?.description.contains(String(repeating: "x", count: 41)) == false, "at most 40 characters quoted")
        #expect(try AppConfiguration.fromEnvironment(["LOG_LEVEL": "DEBUG"]).logLevel == .debug)
    }
}
