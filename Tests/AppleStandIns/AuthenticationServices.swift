// Stand-in for the parts of Apple's AuthenticationServices that Sources/PasskeyClient/Apple uses, transcribed
// from the SDK interfaces of Xcode 16.3 (iOS 18.4, macOS 15.4): names, argument labels, optionality, main-actor
// isolation and sendability as Swift imports them. Only scripts/typecheck-apple.sh compiles it, to type-check the
// adapters on Linux; it is in no product and never runs (the bodies trap).
//
// Where Objective-C cannot be mirrored on Linux it is made stricter, never looser: the delegate's optional
// methods are required (a misspelt one fails instead of never being called), and the @objc runtime is absent.
public import Foundation

// MARK: - ASFoundation.h

/// `UIWindow` on iOS and visionOS, `NSWindow` on macOS: a main-actor class.
@MainActor
open class UIWindow {
    public init() {}
}

public typealias ASPresentationAnchor = UIWindow

// MARK: - ASAuthorizationProvider.h, ASAuthorizationCredential.h, ASAuthorization.h, ASAuthorizationRequest.h

public protocol ASAuthorizationProvider: NSObjectProtocol {}

public protocol ASAuthorizationCredential: NSObjectProtocol {}

open class ASAuthorization: NSObject {
    open var provider: any ASAuthorizationProvider { fatalError("stand-in") }
    open var credential: any ASAuthorizationCredential { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
}

open class ASAuthorizationRequest: NSObject {
    open var provider: any ASAuthorizationProvider { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
}

// MARK: - ASAuthorizationController.h

@MainActor
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    )
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

@available(watchOS, unavailable)
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

open class ASAuthorizationController: NSObject {
    open var authorizationRequests: [ASAuthorizationRequest] { fatalError("stand-in") }
    weak open var delegate: (any ASAuthorizationControllerDelegate)?
    @available(watchOS, unavailable)
    weak open var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    public init(authorizationRequests: [ASAuthorizationRequest]) { fatalError("stand-in") }
    open func performRequests() { fatalError("stand-in") }
    @available(iOS 16.0, macOS 13.0, tvOS 18.0, *)
    @available(watchOS, unavailable)
    open func cancel() { fatalError("stand-in") }
}

// MARK: - ASAuthorizationError.h

public let ASAuthorizationErrorDomain: String = "com.apple.AuthenticationServices.AuthorizationError"

// MARK: - ASAuthorizationPublicKeyCredentialConstants.h

public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: RawRepresentable, Hashable,
    @unchecked Sendable
{
    public var rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
}

public struct ASAuthorizationPublicKeyCredentialAttestationKind: RawRepresentable, Hashable, @unchecked Sendable {
    public var rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
}

public struct ASAuthorizationPublicKeyCredentialResidentKeyPreference: RawRepresentable, Hashable,
    @unchecked Sendable
{
    public var rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
}

@available(iOS 16.6, macOS 13.5, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public enum ASAuthorizationPublicKeyCredentialAttachment: Int, @unchecked Sendable {
    case platform = 0
    case crossPlatform = 1
}

// MARK: - ASCOSEConstants.h

public struct ASCOSEAlgorithmIdentifier: RawRepresentable, Hashable, @unchecked Sendable {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let ES256 = ASCOSEAlgorithmIdentifier(rawValue: -7)
}

// MARK: - ASPublicKeyCredential.h and the registration and assertion protocols

public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    var rawClientDataJSON: Data { get }
    var credentialID: Data { get }
}

public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    var rawAttestationObject: Data? { get }
}

public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    var rawAuthenticatorData: Data! { get }
    var userID: Data! { get }
    var signature: Data! { get }
}

public protocol ASAuthorizationPublicKeyCredentialDescriptor: NSObjectProtocol {
    var credentialID: Data { get set }
}

public protocol ASAuthorizationPublicKeyCredentialRegistrationRequest: NSObjectProtocol {
    var relyingPartyIdentifier: String { get }
    var userID: Data { get set }
    var name: String { get set }
    var displayName: String? { get set }
    var challenge: Data { get set }
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
    var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind { get set }
}

public protocol ASAuthorizationPublicKeyCredentialAssertionRequest: NSObjectProtocol {
    var challenge: Data { get set }
    var relyingPartyIdentifier: String { get set }
    var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference { get set }
}

// MARK: - Platform (iCloud Keychain) provider

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    open var relyingPartyIdentifier: String { fatalError("stand-in") }
    public init(relyingPartyIdentifier: String) { fatalError("stand-in") }
    open func createCredentialRegistrationRequest(
        challenge: Data,
        name: String,
        userID: Data
    ) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest { fatalError("stand-in") }
    open func createCredentialAssertionRequest(
        challenge: Data
    ) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest { fatalError("stand-in") }
}

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject,
    ASAuthorizationPublicKeyCredentialDescriptor
{
    open var credentialID: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public init(credentialID: Data) { fatalError("stand-in") }
}

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialRegistrationRequest
{
    open var relyingPartyIdentifier: String { fatalError("stand-in") }
    open var userID: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var name: String {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var displayName: String? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var challenge: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `ASAuthorizationWebBrowserPlatformPublicKeyCredentialRegistrationRequest`, which the platform registration
/// request adopts: `excludedCredentials` from iOS 17.4 and macOS 13.5, not on visionOS.
@available(iOS 17.4, macOS 13.5, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
extension ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
    public var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialAssertionRequest
{
    open var challenge: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var relyingPartyIdentifier: String {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawAttestationObject: Data? { fatalError("stand-in") }
    @available(iOS 16.6, macOS 13.5, *)
    @available(tvOS, unavailable)
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
}

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawAuthenticatorData: Data! { fatalError("stand-in") }
    open var userID: Data! { fatalError("stand-in") }
    open var signature: Data! { fatalError("stand-in") }
    @available(iOS 16.6, macOS 13.5, *)
    @available(tvOS, unavailable)
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
}

// MARK: - Security key provider (iOS and macOS only)

@available(iOS 15.0, macOS 12.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    open var relyingPartyIdentifier: String { fatalError("stand-in") }
    public init(relyingPartyIdentifier: String) { fatalError("stand-in") }
    open func createCredentialRegistrationRequest(
        challenge: Data,
        displayName: String,
        name: String,
        userID: Data
    ) -> ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest { fatalError("stand-in") }
    open func createCredentialAssertionRequest(
        challenge: Data
    ) -> ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest { fatalError("stand-in") }
}

@available(iOS 15.0, macOS 12.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor: NSObject,
    ASAuthorizationPublicKeyCredentialDescriptor
{
    /// `ASAuthorizationSecurityKeyPublicKeyCredentialDescriptorTransport`: "usb", "nfc", "ble".
    public struct Transport: RawRepresentable, Hashable, @unchecked Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let usb = Transport(rawValue: "usb")
        public static let nfc = Transport(rawValue: "nfc")
        public static let bluetooth = Transport(rawValue: "ble")
        /// `ASAuthorizationAllSupportedPublicKeyCredentialDescriptorTransports()`, refined for Swift.
        public static var allSupported: [Transport] { fatalError("stand-in") }
    }

    open var credentialID: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var transports: [Transport] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public init(credentialID: Data, transports allowedTransports: [Transport]) { fatalError("stand-in") }
}

@available(iOS 15.0, macOS 12.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class ASAuthorizationPublicKeyCredentialParameters: NSObject {
    open var algorithm: ASCOSEAlgorithmIdentifier { fatalError("stand-in") }
    public init(algorithm: ASCOSEAlgorithmIdentifier) { fatalError("stand-in") }
}

@available(iOS 15.0, macOS 12.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialRegistrationRequest
{
    open var relyingPartyIdentifier: String { fatalError("stand-in") }
    open var userID: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var name: String {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var displayName: String? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var challenge: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var credentialParameters: [ASAuthorizationPublicKeyCredentialParameters] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var excludedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var residentKeyPreference: ASAuthorizationPublicKeyCredentialResidentKeyPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

@available(iOS 15.0, macOS 12.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest: ASAuthorizationRequest,
    ASAuthorizationPublicKeyCredentialAssertionRequest
{
    open var challenge: Data {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var relyingPartyIdentifier: String {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    open var allowedCredentials: [ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

@available(iOS 15.0, macOS 12.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawAttestationObject: Data? { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
}

@available(iOS 15.0, macOS 12.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertion: NSObject,
    ASAuthorizationPublicKeyCredentialAssertion
{
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawAuthenticatorData: Data! { fatalError("stand-in") }
    open var userID: Data! { fatalError("stand-in") }
    open var signature: Data! { fatalError("stand-in") }
    @available(*, unavailable) public override init() { fatalError("stand-in") }
}

// MARK: - Credential provider extensions (iOS 17, macOS 14): ASCredentialProviderViewController.h,
// ASCredentialProviderExtensionContext.h, ASCredentialRequest.h, ASCredentialIdentity.h,
// ASPasskeyCredentialIdentity.h, ASPasskeyCredentialRequest.h, ASPasskeyAssertionCredential.h, ASExtensionErrors.h,
// ASCredentialIdentityStore.h, ASCredentialIdentityStoreState.h, ASSettingsHelper.h

/// `UIViewController` on iOS and visionOS, `NSViewController` on macOS: a main-actor class.
@MainActor
open class UIViewController {
    public init() {}
}

public protocol ASCredentialIdentity: NSObjectProtocol {
    var user: String { get }
    var recordIdentifier: String? { get }
}

open class ASPasskeyCredentialIdentity: NSObject, ASCredentialIdentity {
    public init(
        relyingPartyIdentifier: String,
        userName: String,
        credentialID: Data,
        userHandle: Data,
        recordIdentifier: String? = nil
    ) { fatalError("stand-in") }
    open var relyingPartyIdentifier: String { fatalError("stand-in") }
    open var userName: String { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
    open var userHandle: Data { fatalError("stand-in") }
    open var user: String { fatalError("stand-in") }
    open var recordIdentifier: String? { fatalError("stand-in") }
}

public enum ASCredentialRequestType: Int, @unchecked Sendable {
    case password = 0
    case passkeyAssertion = 1
    case passkeyRegistration = 2
    case oneTimeCode = 3
}

public protocol ASCredentialRequest: NSObjectProtocol {
    var type: ASCredentialRequestType { get }
    var credentialIdentity: any ASCredentialIdentity { get }
}

open class ASPasskeyCredentialRequest: NSObject, ASCredentialRequest {
    open var type: ASCredentialRequestType { fatalError("stand-in") }
    open var credentialIdentity: any ASCredentialIdentity { fatalError("stand-in") }
    open var clientDataHash: Data { fatalError("stand-in") }
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        fatalError("stand-in")
    }
}

open class ASPasskeyAssertionCredential: NSObject, ASAuthorizationCredential {
    public init(
        userHandle: Data,
        relyingParty: String,
        signature: Data,
        clientDataHash: Data,
        authenticatorData: Data,
        credentialID: Data
    ) { fatalError("stand-in") }
}

public struct ASExtensionError: Error, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case failed = 0
        case userCanceled = 1
        case userInteractionRequired = 100
        case credentialIdentityNotFound = 101
        case matchedExcludedCredential = 102
    }
    public init(_ code: Code, userInfo: [String: String] = [:]) { fatalError("stand-in") }
    public var code: Code { fatalError("stand-in") }
}

/// An `NSExtensionContext`.
open class ASCredentialProviderExtensionContext: NSObject {
    open func completeAssertionRequest(
        using credential: ASPasskeyAssertionCredential,
        completionHandler: (@Sendable (Bool) -> Void)? = nil
    ) { fatalError("stand-in") }
    open func cancelRequest(withError error: any Error) { fatalError("stand-in") }
}

@MainActor
open class ASCredentialProviderViewController: UIViewController {
    open var extensionContext: ASCredentialProviderExtensionContext { fatalError("stand-in") }
    open func prepareInterfaceToProvideCredential(for credentialRequest: any ASCredentialRequest) {
        fatalError("stand-in")
    }
    open func provideCredentialWithoutUserInteraction(for credentialRequest: any ASCredentialRequest) {
        fatalError("stand-in")
    }
}

open class ASCredentialIdentityStoreState: NSObject {
    open var isEnabled: Bool { fatalError("stand-in") }
    open var supportsIncrementalUpdates: Bool { fatalError("stand-in") }
}

open class ASCredentialIdentityStore: NSObject {
    open class var shared: ASCredentialIdentityStore { fatalError("stand-in") }
    open func state() async -> ASCredentialIdentityStoreState { fatalError("stand-in") }
    open func saveCredentialIdentities(_ credentialIdentities: [any ASCredentialIdentity]) async throws {
        fatalError("stand-in")
    }
    open func replaceCredentialIdentities(_ newCredentialIdentities: [any ASCredentialIdentity]) async throws {
        fatalError("stand-in")
    }
    open func removeAllCredentialIdentities() async throws { fatalError("stand-in") }
}

open class ASSettingsHelper: NSObject {
    open class func openCredentialProviderAppSettings() async throws { fatalError("stand-in") }
}
