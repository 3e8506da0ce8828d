// Stand-in for the Secure Enclave part of Apple's CryptoKit that Sources/PasskeyClient/Apple uses, transcribed
// from the SDK interfaces of Xcode 16.3 (iOS 18.4, macOS 15.4): names, argument labels, defaults and
// optionality. Only scripts/typecheck-apple.sh compiles it; it is in no product and never runs. (swift-crypto's
// module is `Crypto`; no module named CryptoKit exists on Linux.)
public import Foundation
public import LocalAuthentication
public import Security

public enum P256 {
    public enum Signing {
        public struct PublicKey {
            public var x963Representation: Data { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
        }

        public struct ECDSASignature {
            public var derRepresentation: Data { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
        }
    }
}

public enum SecureEnclave {
    public static var isAvailable: Bool { fatalError("stand-in") }

    public enum P256 {
        public enum Signing {
            public struct PrivateKey {
                public init(
                    compactRepresentable: Bool = true,
                    accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                        nil,
                        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                        .privateKeyUsage,
                        nil
                    )!,
                    authenticationContext: LAContext? = nil
                ) throws { fatalError("stand-in") }

                public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
                    fatalError("stand-in")
                }

                public var dataRepresentation: Data { fatalError("stand-in") }
                public var publicKey: CryptoKit.P256.Signing.PublicKey { fatalError("stand-in") }

                public func signature<D: DataProtocol>(for data: D) throws -> CryptoKit.P256.Signing.ECDSASignature {
                    fatalError("stand-in")
                }
            }
        }
    }
}
