import ArgumentParser
import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository

/// `intranet people`: the staff directory; lists (or searches) by default.
struct PeopleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "Look people up, show someone's card or the org chart; editors add, change and remove people.",
        discussion: """
            intranet people [--search TEXT] lists (or searches) the directory; show ID prints \
            a card; org [ID] draws the tree under someone, or the whole organisation.

            \(ExitStatus.helpText)
            """,
        subcommands: [
            PeopleListCommand.self, PeopleShowCommand.self, PeopleOrgCommand.self,
            PeopleCreateCommand.self, PeopleUpdateCommand.self, PeopleDeleteCommand.self,
        ],
        defaultSubcommand: PeopleListCommand.self)
}

/// `intranet people [list] [--search TEXT] [--page N] [--per-page N]`.
struct PeopleListCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List people by name, or those matching --search (name, e-mail, job title, department).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only people whose name, e-mail, job title or department contains this (case and accents ignored).")
    var search: String?

    @Option(help: "The page to show, from 1.")
    var page = 1

    @Option(help: "People per page, 1 to 100 (default 20).")
    var perPage = 20

    func validate() throws {
        if page < 1 { throw ValidationError("--page must be 1 or more") }
        if !(1...100).contains(perPage) { throw ValidationError("--per-page must be between 1 and 100") }
        if let search, search.count > 200 { throw ValidationError("--search may be at most 200 characters") }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let people = session.client.people
        let result = try await session.perform("the people") {
            if let search {
                return try await people.search(search, page: page, pageSize: perPage)
            }
            return try await people.read(page: page, pageSize: perPage)
        }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
            return
        }
        var footer = "Page \(result.number)"
        if let count = result.info.pageCount { footer += " of \(max(count, 1))" }
        if let total = result.info.total {
            footer += " · \(total) \(total == 1 ? "person" : "people")" + (search.map { " matching “\($0)”" } ?? "")
        }
        await session.writeLines(PersonTable(width: context.width, isStyled: context.isStyled).lines(for: result.items, footer: footer))
    }
}

/// `intranet people show ID`: a card with contact, manager and reports.
struct PeopleShowCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a person: name, job title, department, contact, manager and reports.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The person's id.")
    var id: Int

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let person = try await session.perform("person \(id)") { try await session.client.people.read(id: id, expanding: [.manager, .reports]) }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
        } else {
            await session.writeLines(PersonCard(width: context.width, isStyled: context.isStyled).lines(for: person))
        }
    }
}

/// `intranet people org [ID]`: the tree under someone, or the whole organisation.
struct PeopleOrgCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "org",
        abstract: "Draw the org chart under a person (or the whole organisation), fitted to the terminal.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The person at the top of the tree (default: everyone).")
    var id: Int?

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let org = try await session.perform("the org chart") { try await session.client.people.org() }
        if session.printsRaw {
            try await session.writeRaw(await session.recorder.lastBody)
            return
        }
        var tops = org.roots
        if let id {
            guard let member = org.member(id: id) else {
                throw TerminalFailure(.notFound, "person \(id) does not exist")
            }
            tops = [member]
        }
        await session.writeLines(tops.isEmpty ? ["No people."] : OrgTree(width: context.width).lines(for: tops))
    }
}

/// Where a person's manager is given on the command line: an id or `none`.
struct ManagerArgument: ExpressibleByArgument, Sendable, Equatable {
    /// The manager's id, `nil` for none.
    let id: Int?

    init?(argument: String) {
        if argument == "none" {
            id = nil
        } else if let id = Int(argument), id > 0 {
            self.id = id
        } else {
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `intranet people create --name N --email E --job-title T --department D [...]`.
struct PeopleCreateCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Add a person (editors and admins) and print the new id.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The full name.")
    var name: String

    @Option(help: "The e-mail address (unique).")
    var email: String

    @Option(help: "What the person does.")
    var jobTitle: String

    @Option(help: "Where in the organisation they work.")
    var department: String

    @Option(help: "A phone number.")
    var phone: String?

    @Option(help: "Where they sit.")
    var location: String?

    @Option(help: ArgumentHelp("The manager's id, or none.", valueName: "id|none"))
    var manager: ManagerArgument?

    @Option(help: ArgumentHelp("The id of the account they sign in with.", valueName: "id"))
    var user: Int?

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let draft = PersonDraft(
            name: name, email: email, jobTitle: jobTitle, department: department, phone: phone, location: location,
            managerId: manager?.id, userId: user)
        let created = try await session.perform("the new person") { try await session.client.people.create(draft) }
        try await session.finish(saying: "\(created.id)")
    }
}

/// `intranet people update ID [--name N] [--manager ID|none] [...]`: sends only what was
/// given, guarded by `If-Match` with the ETag of a fresh read.
struct PeopleUpdateCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change a person (editors and admins); only what you give is sent.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The person's id.")
    var id: Int

    @Option(help: "The new full name.")
    var name: String?

    @Option(help: "The new e-mail address.")
    var email: String?

    @Option(help: "The new job title.")
    var jobTitle: String?

    @Option(help: "The new department.")
    var department: String?

    @Option(help: "The new phone number (empty to remove it).")
    var phone: String?

    @Option(help: "The new location (empty to remove it).")
    var location: String?

    @Option(help: ArgumentHelp("The new manager's id, or none for the top.", valueName: "id|none"))
    var manager: ManagerArgument?

    private var patch: PersonPatch {
        func clearable(_ text: String?) -> PatchField<String> {
            text.map { $0.isEmpty ? .null : .value($0) } ?? .absent
        }
        return PersonPatch(
            name: name, email: email, jobTitle: jobTitle, department: department, phone: clearable(phone), location: clearable(location),
            managerId: manager.map { $0.id.map(PatchField.value) ?? .null } ?? .absent)
    }

    func validate() throws {
        if patch == PersonPatch() {
            throw ValidationError("nothing to change: give --name, --email, --job-title, --department, --phone, --location or --manager")
        }
    }

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let subject = "person \(id)"
        let current = try await session.perform(subject) { try await session.client.people.readVersioned(id: id) }
        let updated = try await session.perform(subject) { try await session.client.people.patch(patch, of: current) }
        try await session.finish(saying: "Updated person \(id) (\(updated.value.name)).")
    }
}

/// `intranet people delete ID [--reassign-to ID|none] [--yes]`: asks first on a terminal.
struct PeopleDeleteCommand: AsyncParsableCommand, TerminalCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Remove a person (asks first unless --yes); someone with reports needs --reassign-to.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The person's id.")
    var id: Int

    @Option(help: ArgumentHelp("Where their reports go: another person's id, or none for the top.", valueName: "id|none"))
    var reassignTo: ManagerArgument?

    @Flag(name: .shortAndLong, help: "Delete without asking.")
    var yes = false

    func run() async throws {
        try await execute(in: .standard())
    }

    func execute(in context: TerminalContext) async throws {
        let session = try CommandSession(options: global, context: context)
        let subject = "person \(id)"
        try context.requireConfirmable(deleting: subject, yes: yes)
        let current = try await session.perform(subject) { try await session.client.people.readVersioned(id: id) }
        if !yes {
            try await context.confirmDeletion(of: subject, asking: "Delete \(current.value.name) (\(id))?")
        }
        try await session.perform(subject) {
            if let reassignTo {
                try await session.client.people.delete(
                    id: id, reassigningReportsTo: reassignTo.id.map(PeopleRepository.ReportsDestination.person) ?? .top, ifMatch: current.etag)
            } else {
                try await session.client.people.delete(current)
            }
        }
        if !session.printsRaw {
            await context.io.write("Deleted person \(id) (\(current.value.name)).\n")
        }
    }
}
