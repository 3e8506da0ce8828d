import WebAuthn

/// Names of well-known passkey providers by AAGUID, for default passkey names and the account page.
/// The AAGUIDs are published by their vendors (and collected by the community list
/// "passkey-authenticator-aaguids"); for others, the description of the model in the FIDO metadata, when the
/// server has it and it makes a passkey name; unknown ones fall back to a generic name. These names are for display
/// only: an AAGUID proves nothing unless an attestation vouches for it.
enum AuthenticatorNames {
    static let known: [String: String] = [
        "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
        "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
        "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
        "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain (Managed)",
        "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
        "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
        "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
        "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
        "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
        "53414d53-554e-4700-0000-000000000000": "Samsung Pass",
    ]

    /// Metadata descriptions longer than this are not used (a default name may get a " 2" suffix).
    static let maximumMetadataNameLength = 48

    static func name(aaguid: String, metadata: MetadataBLOB? = nil) -> String? {
        if let name = known[aaguid.lowercased()] { return name }
        guard let metadata, let aaguid = AAGUID(uuidString: aaguid),
            let description = metadata.lookup(aaguid: aaguid).entry?.description,
            description.unicodeScalars.count <= maximumMetadataNameLength, (try? CredentialName(description)) != nil
        else { return nil }
        return description
    }

    /// A default passkey name: the provider's name, or what kind of authenticator it is.
    static func defaultName(
        aaguid: String,
        transports: [String],
        backupEligible: Bool,
        metadata: MetadataBLOB? = nil
    ) -> String {
        if let name = name(aaguid: aaguid, metadata: metadata) { return name }
        if transports.contains("usb") || transports.contains("nfc") || transports.contains("ble") {
            return "Security key"
        }
        return backupEligible ? "Synced passkey" : "Passkey"
    }
}
