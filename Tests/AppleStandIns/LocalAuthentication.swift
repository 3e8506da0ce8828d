// Stand-in for the parts of Apple's LocalAuthentication that Sources/PasskeyClient/Apple uses, transcribed from
// the SDK interfaces of Xcode 16.3 (iOS 18.4, macOS 15.4): names, argument labels, optionality and sendability
// as Swift imports them. Only scripts/typecheck-apple.sh compiles it; it is in no product and never runs.
public import Foundation

/// `LAPolicy` (an `NSInteger` enumeration).
public enum LAPolicy: Int, @unchecked Sendable {
    case deviceOwnerAuthenticationWithBiometrics = 1
    case deviceOwnerAuthentication = 2
}

/// `LAContext`: an `NSObject` subclass, not `Sendable`.
open class LAContext: NSObject {
    public override init() { fatalError("stand-in") }

    /// `canEvaluatePolicy:error:`; whether the policy can be evaluated now (no prompt).
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { fatalError("stand-in") }

    /// The `async` form Swift imports for `evaluatePolicy:localizedReason:reply:`.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        fatalError("stand-in")
    }

    /// Invalidates the context; an evaluation in progress fails with `LAError.appCancel`.
    open func invalidate() { fatalError("stand-in") }
}

/// Foundation's `NSErrorPointer` (`AutoreleasingUnsafeMutablePointer<NSError?>?` on Apple platforms), which
/// Linux's Foundation does not declare; the adapters pass nil or `&error` to it, which both forms accept.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

public let LAErrorDomain: String = "com.apple.LocalAuthentication"
