import SQLKit

/// `LIKE '%text%'` searches, the text bound as a parameter with its wildcards escaped, so `%`
/// and `_` in what a user typed are matched literally: announcements' search and people's.
enum SearchPattern {
    /// `expression LIKE '%text%' ESCAPE '\'`.
    static func like(_ expression: any SQLExpression, containing text: String) -> any SQLExpression {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return SQLList([expression, SQLRaw("LIKE"), SQLBind("%" + escaped + "%"), SQLRaw("ESCAPE '\\'")], separator: SQLRaw(" "))
    }

    /// `column LIKE '%text%' ESCAPE '\'`.
    static func like(_ column: String, containing text: String) -> any SQLExpression {
        like(SQLColumn(column), containing: text)
    }
}
