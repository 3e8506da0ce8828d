// Stand-in for the parts of Apple's Security framework that Sources/PasskeyClient/Apple uses, transcribed from
// the SDK interfaces of Xcode 16.3 (iOS 18.4, macOS 15.4): names, argument labels and optionality as Swift
// imports them. Core Foundation types are modelled by their toll-free bridged Foundation classes (bridging casts
// such as `[String: Any] as CFDictionary` compile as on Apple platforms). Only scripts/typecheck-apple.sh
// compiles it; it is in no product and never runs.
public import Foundation

public typealias OSStatus = Int32
public typealias CFTypeRef = AnyObject
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary

public final class CFAllocator {}

/// `CFError`, which Swift bridges to `Error`.
public final class CFError: Error, @unchecked Sendable {}

public final class SecAccessControl {}

public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
}

public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?,
    _ protection: CFTypeRef,
    _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? { fatalError("stand-in") }

public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

public var errSecSuccess: OSStatus { 0 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecDuplicateItem: OSStatus { -25299 }

public var kSecClass: CFString { "class" }
public var kSecClassGenericPassword: CFString { "genp" }
public var kSecAttrService: CFString { "svce" }
public var kSecAttrAccount: CFString { "acct" }
public var kSecAttrAccessGroup: CFString { "agrp" }
public var kSecAttrAccessible: CFString { "pdmn" }
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { "cku" }
public var kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString { "akpu" }
public var kSecUseDataProtectionKeychain: CFString { "nleg" }
public var kSecReturnData: CFString { "r_Data" }
public var kSecValueData: CFString { "v_Data" }
public var kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString { "aku" }
