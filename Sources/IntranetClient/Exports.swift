// `import IntranetClient` is all an app needs: the generic client layer (errors, paging,
// versioned values, patch fields, retries, transports), swift-http-types (header fields,
// requests and statuses appear throughout that layer) and the wire types an app builds or
// reads. The server's version-specific DTOs, header names and validation rules stay in
// IntranetAPI, out of an app's way. swift-log is not re-exported: its `Logger` would clash
// with `os.Logger` in apps that use both; an app that passes a logger imports Logging.
@_exported import HTTPTypes
@_exported import RESTRepository
@_exported import enum IntranetAPI.APIVersion
@_exported import struct IntranetAPI.AnnouncementDraft
@_exported import enum IntranetAPI.AnnouncementReaders
@_exported import struct IntranetAPI.AnnouncementAudience
@_exported import enum IntranetAPI.AnnouncementStatus
@_exported import enum IntranetAPI.AnnouncementV3
@_exported import struct IntranetAPI.AttachmentDescription
@_exported import struct IntranetAPI.AttachmentPatch
@_exported import struct IntranetAPI.ImageVariant
@_exported import struct IntranetAPI.SearchResults
@_exported import struct IntranetAPI.SearchGroup
@_exported import struct IntranetAPI.PersonHit
@_exported import struct IntranetAPI.AnnouncementHit
@_exported import struct IntranetAPI.SearchSnippet
@_exported import struct IntranetAPI.NewUser
@_exported import struct IntranetAPI.User
@_exported import enum IntranetAPI.UserRole
@_exported import struct IntranetAPI.Problem
@_exported import enum IntranetAPI.IntranetJSON
@_exported import enum IntranetAPI.WireFormat
@_exported import enum IntranetAPI.WireClass
