/// Why a Spearal message is not an org chart.
public enum OrgChartError: Error, Equatable, Sendable {
    /// A person bean lacks a property every person has (`id`, `name`, …); `id` is the
    /// person's id when known.
    case missing(String, in: Int?)
}
