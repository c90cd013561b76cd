import IntranetHTML

extension BlockBuilder {
    /// Ends the current block and lays out a list: bullets by nesting level, or numbers from
    /// `start` right-aligned to the widest number; a top-level list is set off by blank lines.
    mutating func addList(ordered: Bool, attributes: [String: String], children: [HTMLNode]) {
        let isTopLevel = lists.isEmpty
        if isTopLevel { separate() } else { flush() }
        if let marker = pendingMarker {  // an item that starts with a nested list
            let outer = String(prefix.dropLast(DisplayWidth.of(marker)))
            emit(TextBlock(spans: [], firstPrefix: outer + marker, prefix: prefix, layout: .flow, isSeparated: isSeparationPending))
            isSeparationPending = false
            pendingMarker = nil
        }
        let itemCount = children.filter { $0.elementName == "li" }.count
        let start = attributes["start"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1
        let width = ordered ? String(start + max(itemCount, 1) - 1).count + 2 : 2
        lists.append(ListState(isOrdered: ordered, next: start, markerWidth: width))
        addChildren(children)
        flush()
        lists.removeLast()
        if isTopLevel { isSeparationPending = true }
    }

    /// Adds a list item: its marker goes before its first line, and everything in it is
    /// indented past the marker.
    mutating func addListItem(_ children: [HTMLNode]) {
        flush()
        let marker: String
        if var list = lists.last, list.isOrdered {
            let number = "\(list.next)."
            marker = String(repeating: " ", count: max(0, list.markerWidth - 1 - number.count)) + number + " "
            list.next += 1
            lists[lists.count - 1] = list
        } else {
            marker = Self.bullets[max(0, lists.count - 1) % Self.bullets.count]
        }
        pendingMarker = marker
        let saved = prefix
        prefix += String(repeating: " ", count: DisplayWidth.of(marker))
        addChildren(children)
        flush()
        prefix = saved
        if let unused = pendingMarker {  // an empty item still shows its marker
            emit(TextBlock(spans: [], firstPrefix: prefix + unused, prefix: prefix, layout: .flow, isSeparated: isSeparationPending))
            isSeparationPending = false
            pendingMarker = nil
        }
    }
}
