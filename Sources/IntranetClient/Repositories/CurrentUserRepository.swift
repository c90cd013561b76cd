import IntranetAPI
import RESTRepository

/// The signed-in user, a singleton resource: `GET /users/me`.
///
/// ``SessionRepository/me()`` reads the same resource and also refreshes the stored session.
public struct CurrentUserRepository: SingleReadable {
    /// The resource is a user.
    public typealias Entity = User

    /// The client sending the requests.
    public let client: RESTClient
    /// `/users/me`.
    public let path = "/users/me"

    /// Creates the repository.
    public init(client: RESTClient) {
        self.client = client
    }
}
