import Testing

@testable import WebAuthn

/// A change to a valid `tpm` statement that verification must reject, and how it must reject it. The same
/// mutations apply to real-device statements and synthetic ones: each breaks the statement before the
/// signature check, or breaks the signature itself.
struct TPMMutation: Sendable, CustomTestStringConvertible {
    /// What a mutation may change: the attStmt map and the client data hash.
    struct Input {
        var fields: CBORValue
        var clientDataHash: [UInt8]
    }

    let name: String
    let code: WebAuthnError.Code
    let fragment: String
    let apply: @Sendable (inout Input) -> Void

    var testDescription: String { name }

    private static func bytes(
        _ key: String,
        _ change: @escaping @Sendable (inout [UInt8]) -> Void
    ) -> @Sendable (inout Input) -> Void {
        { input in
            var value = input.fields.tpmBytes(key)
            change(&value)
            input.fields = input.fields.settingTPMField(key, to: .bytes(value))
        }
    }

    /// Where clockInfo starts in a certInfo: after magic, type, qualifiedSigner and extraData.
    private static func clockInfoOffset(_ certInfo: [UInt8]) -> Int {
        let extraData = 8 + (Int(certInfo[6]) << 8 | Int(certInfo[7]))
        return extraData + 2 + (Int(certInfo[extraData]) << 8 | Int(certInfo[extraData + 1]))
    }

    private static func field(_ key: String, _ value: CBORValue?) -> @Sendable (inout Input) -> Void {
        { input in input.fields = input.fields.settingTPMField(key, to: value) }
    }

    static let all: [TPMMutation] = [
        // pubArea
        TPMMutation(
            name: "flip the last byte of pubArea's unique",
            code: .attestationInvalid,
            fragment: "not the credential public key",
            apply: bytes("pubArea") { $0[$0.count - 1] ^= 0x01 }
        ),
        TPMMutation(
            name: "pubArea's nameAlg is SHA-384, which the attested Name was not computed with",
            code: .attestationInvalid,
            fragment: "attested name",
            apply: bytes("pubArea") {
                $0[2] = 0x00
                $0[3] = 0x0C
            }
        ),
        TPMMutation(
            name: "flip a bit of pubArea's objectAttributes",
            code: .attestationInvalid,
            fragment: "attested name",
            apply: bytes("pubArea") { $0[7] ^= 0x01 }
        ),
        TPMMutation(
            name: "pubArea's nameAlg is TPM_ALG_SM3_256",
            code: .attestationInvalid,
            fragment: "nameAlg",
            apply: bytes("pubArea") {
                $0[2] = 0x00
                $0[3] = 0x12
            }
        ),
        TPMMutation(
            name: "pubArea's type is TPM_ALG_KEYEDHASH",
            code: .attestationInvalid,
            fragment: "TPM_ALG_RSA",
            apply: bytes("pubArea") {
                $0[0] = 0x00
                $0[1] = 0x08
            }
        ),
        TPMMutation(
            name: "pubArea truncated by one byte",
            code: .attestationInvalid,
            fragment: "pubArea is not a valid TPMT_PUBLIC",
            apply: bytes("pubArea") { $0.removeLast() }
        ),
        TPMMutation(
            name: "pubArea truncated to 20 bytes",
            code: .attestationInvalid,
            fragment: "pubArea is not a valid TPMT_PUBLIC",
            apply: bytes("pubArea") { $0.removeSubrange(20...) }
        ),
        TPMMutation(
            name: "pubArea with a trailing byte",
            code: .attestationInvalid,
            fragment: "unexpected bytes",
            apply: bytes("pubArea") { $0.append(0) }
        ),
        TPMMutation(
            name: "pubArea's authPolicy size exceeds the structure",
            code: .attestationInvalid,
            fragment: "claims",
            apply: bytes("pubArea") {
                $0[8] = 0xFF
                $0[9] = 0xFF
            }
        ),
        TPMMutation(
            name: "pubArea of another key",
            code: .attestationInvalid,
            fragment: "not the credential public key",
            apply: { input in
                let other = (try? TPMSyntheticStatement.credential(.ecP256).pubArea) ?? []
                input.fields = input.fields.settingTPMField("pubArea", to: .bytes(other))
            }
        ),
        // certInfo
        TPMMutation(
            name: "certInfo's magic is wrong",
            code: .attestationInvalid,
            fragment: "magic",
            apply: bytes("certInfo") { $0[0] = 0x00 }
        ),
        TPMMutation(
            name: "certInfo's type is TPM_ST_ATTEST_QUOTE",
            code: .attestationInvalid,
            fragment: "TPM_ST_ATTEST_CERTIFY",
            apply: bytes("certInfo") { $0[5] = 0x18 }
        ),
        TPMMutation(
            name: "certInfo truncated by one byte",
            code: .attestationInvalid,
            fragment: "certInfo is not a valid TPMS_ATTEST",
            apply: bytes("certInfo") { $0.removeLast() }
        ),
        TPMMutation(
            name: "certInfo truncated inside clockInfo",
            code: .attestationInvalid,
            fragment: "truncated",
            apply: bytes("certInfo") { $0.removeSubrange((clockInfoOffset($0) + 5)...) }
        ),
        TPMMutation(
            name: "certInfo with a trailing byte",
            code: .attestationInvalid,
            fragment: "unexpected bytes",
            apply: bytes("certInfo") { $0.append(0) }
        ),
        TPMMutation(
            name: "flip a byte of certInfo's clockInfo",
            code: .attestationInvalid,
            fragment: "signature does not verify",
            apply: bytes("certInfo") { $0[clockInfoOffset($0) + 7] ^= 0x01 }
        ),
        TPMMutation(
            name: "flip the last byte of certInfo's qualifiedSigner",
            code: .attestationInvalid,
            fragment: "signature does not verify",
            apply: bytes("certInfo") { certInfo in
                let size = Int(certInfo[6]) << 8 | Int(certInfo[7])
                // An empty qualifiedSigner gets a byte instead (and its size one more).
                if size == 0 {
                    certInfo[7] = 1
                    certInfo.insert(0x00, at: 8)
                } else {
                    certInfo[8 + size - 1] ^= 0x01
                }
            }
        ),
        TPMMutation(
            name: "clientDataHash differs from what extraData covers",
            code: .attestationInvalid,
            fragment: "extraData",
            apply: { $0.clientDataHash[0] ^= 0x01 }
        ),
        // sig
        TPMMutation(
            name: "flip a byte in the middle of sig",
            code: .attestationInvalid,
            fragment: "signature does not verify",
            apply: bytes("sig") { $0[$0.count / 2] ^= 0x01 }
        ),
        TPMMutation(
            name: "sig is empty",
            code: .attestationInvalid,
            fragment: "signature does not verify",
            apply: field("sig", .bytes([]))
        ),
        // the statement's syntax (§8.3 step 1)
        TPMMutation(name: "no x5c", code: .attestationInvalid, fragment: "no x5c", apply: field("x5c", nil)),
        TPMMutation(
            name: "ECDAA statement",
            code: .attestationInvalid,
            fragment: "ECDAA",
            apply: { input in
                input.fields = input.fields.settingTPMField("x5c", to: nil).settingTPMField(
                    "ecdaaKeyId",
                    to: .bytes([1, 2, 3])
                )
            }
        ),
        TPMMutation(name: "x5c is empty", code: .attestationInvalid, fragment: "x5c", apply: field("x5c", .array([]))),
        TPMMutation(
            name: "x5c holds a non-certificate",
            code: .attestationCertificateInvalid,
            fragment: "not valid DER",
            apply: field("x5c", .array([.bytes([0x30, 0x03, 0x02, 0x01, 0x01])]))
        ),
        TPMMutation(name: "ver is 1.0", code: .attestationInvalid, fragment: "ver", apply: field("ver", .text("1.0"))),
        TPMMutation(name: "ver is missing", code: .attestationInvalid, fragment: "ver", apply: field("ver", nil)),
        TPMMutation(
            name: "ver is a number",
            code: .attestationInvalid,
            fragment: "ver",
            apply: field("ver", CBORValue(2))
        ),
        TPMMutation(
            name: "an unknown member",
            code: .attestationInvalid,
            fragment: "unexpected member",
            apply: field("extra", .bytes([0]))
        ),
        TPMMutation(name: "no sig", code: .attestationInvalid, fragment: "'sig'", apply: field("sig", nil)),
        TPMMutation(
            name: "certInfo is text",
            code: .attestationInvalid,
            fragment: "'certInfo'",
            apply: field("certInfo", .text("certInfo"))
        ),
        TPMMutation(name: "no pubArea", code: .attestationInvalid, fragment: "'pubArea'", apply: field("pubArea", nil)),
        TPMMutation(
            name: "alg is not a COSE algorithm this library knows",
            code: .unsupportedAlgorithm,
            fragment: "-999",
            apply: field("alg", CBORValue(-999))
        ),
        TPMMutation(
            name: "alg is EdDSA",
            code: .unsupportedAlgorithm,
            fragment: "EdDSA",
            apply: field("alg", CBORValue(-8))
        ),
        TPMMutation(name: "alg is missing", code: .attestationInvalid, fragment: "'alg'", apply: field("alg", nil)),
    ]
}
