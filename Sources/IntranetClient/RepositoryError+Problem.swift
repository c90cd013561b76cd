import IntranetAPI
import RESTRepository

extension RepositoryError {
    /// The intranet's own problem body (`IntranetAPI.Problem`), with its extensions such as
    /// `supportedVersions` on 406; `nil` when the error has no such body.
    public var problem: Problem? {
        response?.decodeProblem(as: Problem.self, decoder: IntranetJSON.decoder())
    }

    /// The versions the server offers, when it refused the requested one (406).
    public var supportedVersions: [String]? {
        guard statusCode == 406 else { return nil }
        return problem?.supportedVersions
    }
}
