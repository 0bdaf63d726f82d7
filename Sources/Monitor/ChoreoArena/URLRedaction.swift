/// A URL as read routes, events and logs show it: the password of its user information and
/// the values of query parameters that carry secrets (`api_key`, `token`, `password`, …)
/// replaced by `…`. Probing uses the URL as configured; only what is shown is redacted.
public enum URLRedaction {
    /// Query parameter names (lower case, `-` read as `_`) whose values are secrets.
    static let secretNames: Set<String> = [
        "key", "api_key", "apikey", "token", "access_token", "auth", "password", "pass", "passwd", "pwd", "secret",
        "client_secret", "signature", "sig",
    ]

    public static func redacted(_ url: String) -> String {
        var text = Substring(url)
        var result = ""
        // User information: `scheme://user:password@host` → `scheme://user:…@host`.
        if let scheme = text.firstRange(of: "://") {
            result += text[..<scheme.upperBound]
            text = text[scheme.upperBound...]
            let authorityEnd = text.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
            let authority = text[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let user = authority[..<at]
                result += (user.firstIndex(of: ":").map { user[..<$0] + ":…" } ?? user) + "@"
                text = text[authority.index(after: at)...]
            }
        }
        guard let question = text.firstIndex(of: "?") else { return result + text }
        result += text[...question]
        let fragmentStart = text.firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: question)..<fragmentStart]
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { part -> String in
            guard let equals = part.firstIndex(of: "=") else { return String(part) }
            let name = part[..<equals].lowercased().replacing("-", with: "_")
            return secretNames.contains(name) ? part[...equals] + "…" : String(part)
        }
        return result + parts.joined(separator: "&") + text[fragmentStart...]
    }

    /// The scheme and host of a URL without its user information (`https://hooks.slack.com`):
    /// what is shown of a webhook URL whose path is itself the secret.
    public static func origin(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return "" }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        return String(url[..<scheme.upperBound] + host)
    }
}
