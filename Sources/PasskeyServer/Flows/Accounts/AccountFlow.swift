import Foundation
import HTTPTypes
import PasskeyStorage
import WebAuthn

/// Flow 6 of DESIGN §3: listing, renaming and revoking credentials, and deleting users.
struct AccountFlow: ServiceFlow {
    let context: FlowContext
}

extension AccountFlow {
    struct CredentialList: Encodable, Sendable {
        let userId: String
        let credentials: [CredentialResponse]
    }

    struct RenameRequest: Decodable, Sendable {
        let name: String
    }

    func listCredentials(userID: String) async throws(APIError) -> CredentialList {
        try Validation.userID(userID)
        guard try await storage({ try await store.user(id: userID) }) != nil else {
            throw APIError.notFound("No user \(userID).")
        }
        let rows = try await storage { try await store.credentials(userID: userID) }
        return CredentialList(
            userId: userID,
            credentials: rows.filter { $0.isLive(at: now()) }.map { CredentialResponse($0, metadata: metadataBLOB) }
        )
    }

    func credential(id: String) async throws(APIError) -> CredentialResponse {
        CredentialResponse(try await storedCredential(id), metadata: metadataBLOB)
    }

    func renameCredential(
        id: String,
        request: RenameRequest,
        by caller: Caller
    ) async throws(APIError) -> CredentialResponse {
        let row = try await storedCredential(id)
        let name = try CredentialName(request.name)
        let renamed: CredentialRecordRow?
        do throws(StoreError) {
            renamed = try await store.renameCredential(id: row.id, name: name.value, nameKey: name.key, at: now())
        } catch {
            if error.code == .nameTaken { throw APIError.credentialNameDuplicate }
            throw error.code == .unavailable ? APIError.storageUnavailable : APIError.unexpected
        }
        guard let renamed else { throw APIError.credentialInactive }
        await audit(.credentialRenamed, by: caller, userID: row.userID, subject: id, details: ["name": name.value])
        return CredentialResponse(renamed, metadata: metadataBLOB)
    }

    func revokeCredential(id: String, by caller: Caller) async throws(APIError) {
        let row = try await storedCredential(id)
        guard try await storage({ try await store.revokeCredential(id: row.id, at: now()) }) != nil else {
            throw APIError.credentialInactive
        }
        // Sessions of the web pages signed in with it end with it.
        let ended = try await storage { try await store.deleteWebSessions(userID: row.userID, credentialID: row.id) }
        await audit(
            .credentialRevoked,
            by: caller,
            userID: row.userID,
            subject: id,
            details: ended > 0 ? ["sessionsEnded": "\(ended)"] : [:]
        )
    }

    func deleteUser(id: String, by caller: Caller) async throws(APIError) {
        try Validation.userID(id)
        guard try await storage({ try await store.deleteUser(id: id) }) else {
            throw APIError.notFound("No user \(id).")
        }
        await audit(.userDeleted, by: caller, userID: id, subject: nil)
    }

    private func storedCredential(_ id: String) async throws(APIError) -> CredentialRecordRow {
        guard let bytes = try? Base64URL.decode(id), !bytes.isEmpty, bytes.count <= 1023 else {
            throw APIError.invalidRequest("A credential id is the credential's base64url id.")
        }
        guard let row = try await storage({ try await store.credential(id: bytes) }) else {
            throw APIError.credentialNotFound
        }
        return row
    }
}
