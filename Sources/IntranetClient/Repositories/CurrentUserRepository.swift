import RESTRepository

/// The signed-in user, a singleton resource: `GET /users/me`.
public struct CurrentUserRepository: SingleReadable {
    /// The resource is a user.
    public typealias Entity = IntranetUser

    /// The client sending the requests.
    public let client: RESTClient
    /// `/users/me`.
    public let path = "/users/me"

    /// Creates the repository.
    public init(client: RESTClient) {
        self.client = client
    }
}
