import IntranetAPI
import RESTRepository

/// A partial change to an account, sent as a JSON Merge Patch by
/// ``UsersRepository/patch(_:id:ifMatch:)``: only the fields given are sent.
///
/// Each field is left alone or set; none can be cleared, since an account always has a display
/// name, a role and a password:
///
/// ```swift
/// UserPatch(role: .editor)            // {"role":"editor"}
/// UserPatch(password: "n3w-secret")   // {"password":"n3w-secret"}
/// ```
///
/// Its description and mirror never show the password.
public struct UserPatch: Encodable, Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The new display name, or absent to keep it.
    public var displayName: RequiredPatchField<String>
    /// The new role, or absent to keep it.
    public var role: RequiredPatchField<UserRole>
    /// The new password, or absent to keep it (changing it ends the user's sessions).
    public var password: RequiredPatchField<String>

    /// Creates a patch; `nil` leaves a field as it is.
    ///
    /// - Parameters:
    ///   - displayName: the new display name.
    ///   - role: the new role.
    ///   - password: the new password (at least 8 characters).
    public init(displayName: String? = nil, role: UserRole? = nil, password: String? = nil) {
        self.displayName = displayName.map(RequiredPatchField.value) ?? .absent
        self.role = role.map(RequiredPatchField.value) ?? .absent
        self.password = password.map(RequiredPatchField.value) ?? .absent
    }

    private enum CodingKeys: String, CodingKey { case displayName, role, password }

    /// Writes only the fields the patch sets.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(role, forKey: .role)
        try container.encode(password, forKey: .password)
    }

    /// The fields set, the password redacted.
    public var description: String {
        var parts: [String] = []
        if case .value(let name) = displayName { parts.append("displayName: \(name)") }
        if case .value(let role) = role { parts.append("role: \(role.rawValue)") }
        if case .value = password { parts.append("password: <redacted>") }
        return "UserPatch(\(parts.joined(separator: ", ")))"
    }

    /// A mirror with the password redacted, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "displayName": displayName, "role": role,
            "password": password == .absent ? "absent" : "<redacted>",
        ])
    }
}
