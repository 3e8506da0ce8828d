// Stand-in for the parts of SwiftUI (and of what it re-exports: UIKit, Combine, Foundation) that the iOS example
// of docs/sdk.md uses, transcribed from the SDK interfaces of Xcode 16.3 as Swift imports them: names, labels,
// main-actor isolation. Only scripts/typecheck-apple.sh compiles it, to type-check that example on Linux; it is in
// no product and never runs (the bodies trap). UIWindow comes from the AuthenticationServices stand-in.
@_exported public import AuthenticationServices
@_exported public import Foundation

#if canImport(FoundationNetworking)
// URLSession is in Foundation on Apple platforms.
@_exported public import FoundationNetworking
#endif

// MARK: - Combine

public protocol ObservableObject: AnyObject {}

@propertyWrapper
public struct Published<Value> {
    public init(wrappedValue: Value) { fatalError("stand-in") }
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

// MARK: - UIKit

@MainActor
open class UIScene: NSObject {}

@MainActor
open class UIWindowScene: UIScene {
    open var keyWindow: UIWindow? { fatalError("stand-in") }
}

@MainActor
open class UIApplication: NSObject {
    open class var shared: UIApplication { fatalError("stand-in") }
    open var connectedScenes: Set<UIScene> { fatalError("stand-in") }
}

// MARK: - SwiftUI

@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public var body: Never { fatalError("stand-in") }
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError("stand-in") }
}

/// What a view builder makes of several views.
public struct TupleView<T>: View {
    public var body: Never { fatalError("stand-in") }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(
        _ content: repeat each Content
    ) -> TupleView<(repeat each Content)> {
        fatalError("stand-in")
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
}

@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: Sendable {
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { fatalError("stand-in") }
    @MainActor public var wrappedValue: ObjectType { fatalError("stand-in") }
}

public struct Text: View {
    public init<S: StringProtocol>(_ content: S) { fatalError("stand-in") }
    public var body: Never { fatalError("stand-in") }
}

public struct Button<Label: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) { fatalError("stand-in") }
}

public struct VStack<Content: View>: View {
    public init(spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) { fatalError("stand-in") }
    public var body: Never { fatalError("stand-in") }
}

public struct Font: Hashable, Sendable {
    public static let footnote = Font()
}

public protocol PrimitiveButtonStyle {}

public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {}

extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    public static var borderedProminent: BorderedProminentButtonStyle { fatalError("stand-in") }
}

/// A view with a modifier applied.
public struct ModifiedView<Content: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension View {
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> ModifiedView<Self> { fatalError("stand-in") }
    public func font(_ font: Font?) -> ModifiedView<Self> { fatalError("stand-in") }
    public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> ModifiedView<Self> { fatalError("stand-in") }
}
