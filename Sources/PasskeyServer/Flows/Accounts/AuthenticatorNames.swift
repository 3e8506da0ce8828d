import Foundation
import WebAuthn

/// Names of passkey providers by AAGUID, for default passkey names and the pages.
///
/// The names ship with the server (`Resources/passkey-provider-names.json`, 52 providers): facts from the community
/// list "passkey-authenticator-aaguids", which collects the AAGUIDs vendors publish (docs/server.md says which
/// update). For others, the description of the model in the FIDO metadata, when the server has it and it makes a
/// passkey name; unknown ones fall back to a generic name. An all-zero AAGUID means the browser withheld the model
/// (attestation `none`). These names are for display only: an AAGUID proves nothing unless an attestation vouches
/// for it.
enum AuthenticatorNames {
    /// The shipped names; an empty or unreadable file means no names, never an error.
    static let known: [String: String] = {
        guard let url = Bundle.module.url(forResource: "passkey-provider-names", withExtension: "json"),
            let data = try? Data(contentsOf: url), data.count <= 1024 * 1024,
            let names = try? JSONDecoder().decode([String: String].self, from: data)
        else { return [:] }
        return Dictionary(
            names.compactMap { aaguid, name in
                (try? CredentialName(name)).map { (aaguid.lowercased(), $0.value) }
            }
        ) { first, _ in first }
    }()

    /// The AAGUID a browser reports when it withholds the authenticator's model.
    static let withheld = "00000000-0000-0000-0000-000000000000"

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

    /// What the pages show for a passkey's authenticator: its name, that the browser withheld it, or that the
    /// server does not know it, with its AAGUID.
    static func label(aaguid: String, name: String?) -> String {
        name ?? (aaguid == withheld ? "Not disclosed by the browser" : "Unknown authenticator (AAGUID \(aaguid))")
    }

    /// What the console shows for an attestation: the format and type, with trust when it was established.
    static func attestationLabel(format: String, type: String, trusted: Bool) -> String {
        guard format != "none" else { return "None (the model was not attested)" }
        return "\(format) (\(type)\(trusted ? ", trusted" : ""))"
    }
}
