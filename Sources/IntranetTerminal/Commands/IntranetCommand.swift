import ArgumentParser

/// `intranet`: the root command. It only groups: `announcements`, `people`, `search`,
/// `events`, `ack`, `pending`, `reach`, `attach`, `attachments`, `download`, `login`, `logout`,
/// `whoami`, `users`, `import` and `cache` do the work.
public struct IntranetCommand: ParsableCommand {
    /// The command's name, abstract, exit statuses and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "intranet",
        abstract: "Read and edit the intranet's announcements and staff directory, and manage its accounts, from a terminal.",
        discussion: """
            Every command takes --server URL (or $INTRANET_SERVER), --api-version 1.0|2.0|3.0, \
            --output table|json|spearal, --wire json|spearal (or $INTRANET_WIRE), --cache and \
            --offline (answers kept on this machine) and --verbose; \
            on a server that wants signed requests, \
            --app-id and --app-secret (or $INTRANET_APP_ID and $INTRANET_APP_SECRET) sign each one.

            Reading needs no sign-in (unless the server says otherwise); creating, changing and \
            deleting need an editor's session, `intranet users` an admin's: run \
            `intranet login` once per server.

            EXAMPLES
              intranet announcements                     list the first page
              intranet announcements --all --output json | jq '.[].title'
              intranet announcements show 2 --api-version 1.0 --verbose
              intranet login --username editor
              echo '<p>10:00</p>' | intranet announcements create --title Drill --body -
              intranet announcements update 7 --title 'Fire drill moved' --clear-body
              intranet announcements create --title 'Office move' --body-file move.html \\
                --publish-at "2026-12-07 08:00" --audience department:Lisbon --important
              intranet announcements update 7 --pin --pinned-until "2026-12-24 18:00"
              intranet announcements drafts             drafts (editors)
              intranet announcements list --status scheduled
              intranet announcements delete 7 --yes
              intranet attach 7 floor-plan.png minutes.pdf   upload files to announcement 7
              intranet attachments 7                     its attachments: name, type, size
              intranet download 7 minutes.pdf -o ~/Downloads
              intranet announcements --follow            the list, then each change as it happens
              intranet events --output json              the live stream, one JSON object per line
              intranet search parental leave             people and announcements, best first
              intranet search --people zoe               people only (--announcements: posts only)
              intranet people --search lefevre           look someone up
              intranet people show 3                     a card: contact, manager, reports
              intranet people org 3                      the tree under person 3
              intranet people delete 10 --reassign-to 3 --yes
              intranet whoami
              intranet users create --username zoe --role editor
              intranet users set-role zoe admin
              intranet announcements --offline           what was read here, without the network
              intranet cache info

            \(ExitStatus.helpText)
            """,
        subcommands: [
            AnnouncementsCommand.self, PeopleCommand.self, SearchCommand.self, EventsCommand.self, AckCommand.self, PendingCommand.self, ReachCommand.self, AttachCommand.self, AttachmentsCommand.self, DownloadCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self, UsersCommand.self, ImportCommand.self, CacheCommand.self,
        ])

    /// Creates the command (ArgumentParser fills it in).
    public init() {}
}

/// `intranet announcements`: lists by default; `show`, `create`, `update`, `delete`, `drafts`.
struct AnnouncementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "announcements",
        abstract: "List, show, create, update and delete announcements.",
        discussion: ExitStatus.helpText,
        subcommands: [ListCommand.self, ShowCommand.self, CreateCommand.self, UpdateCommand.self, DeleteCommand.self, DraftsCommand.self],
        defaultSubcommand: ListCommand.self)
}
