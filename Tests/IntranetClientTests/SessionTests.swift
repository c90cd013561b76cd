import Foundation
import IntranetAPI
@testable import IntranetClient
import Testing

@Suite("Session")
struct SessionTests {
    @Test("a login response becomes a session with the same token, expiry and user")
    func fromLoginResponse() {
        let expiry = Date(timeIntervalSince1970: 1_795_000_000)
        let response = LoginResponse(token: "tok-x", expiresAt: expiry, user: Accounts.admin)

        let session = Session(response)

        #expect(session == Session(token: "tok-x", expiresAt: expiry, user: Accounts.admin))
        #expect(session.user.canManageUsers)
        #expect(session.user.canEditAnnouncements)
    }

    @Test("printing, debug-printing or dumping a session never shows the token")
    func tokenNeverPrinted() {
        let session = Accounts.session(token: "tok-s3cr3t-value")
        var dumped = ""

        dump(session, to: &dumped)
        let text = "\(session) \(String(reflecting: session)) \(dumped)"

        #expect(!text.contains("tok-s3cr3t-value"))
        #expect(text.contains("<redacted>"))
        #expect(text.contains("ed"))
    }

    @Test("a session is expired from its expiry on, and the state then reads signed out")
    func expiry() {
        let expiry = Date(timeIntervalSince1970: 1_795_000_000)
        let session = Session(token: "t", expiresAt: expiry, user: Accounts.editor)

        let before = SessionState(session, at: expiry.addingTimeInterval(-1))
        let at = SessionState(session, at: expiry)

        #expect(before == .signedIn(Accounts.editor))
        #expect(at == .signedOut)
        #expect(!session.isExpired(at: expiry.addingTimeInterval(-1)))
        #expect(at.user == nil)
    }

    @Test("a reader may not edit announcements nor manage users")
    func readerPermissions() {
        let reader = IntranetUser(id: 5, username: "r", displayName: "R", role: .reader)

        #expect(!reader.canEditAnnouncements)
        #expect(!reader.canManageUsers)
    }
}
