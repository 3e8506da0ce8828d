/// A dialog a page opened with `alert`, `confirm`, `prompt` or `onbeforeunload`.
public struct Dialog: Sendable, Hashable {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    public let type: String
    public let message: String
    public let defaultPrompt: String?
}

/// How a page's dialog is answered.
public enum DialogAnswer: Sendable, Hashable {
    /// OK (a prompt gets its default text).
    case accept
    /// Cancel.
    case dismiss
    /// OK, with this text typed into a prompt.
    case reply(String)
}
