import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore.Configuration {
    /// Turns whatever an operation threw into the store's one error type: unique violations into the contract's
    /// codes, undecodable data into `.corrupt`, and every failure to reach or use the server into `.unavailable`
    /// with what to check. Messages never include the password or bound values.
    func storeError(_ error: any Error, doing operation: String) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as PostgresTransactionError:
            if let inner = error.closureError ?? error.beginError ?? error.commitError {
                return storeError(inner, doing: operation)
            }
            return StoreError(.unavailable, "Could not \(operation): the transaction failed on \(target).")
        case let error as PSQLError:
            return storeError(error, doing: operation)
        case let error as PostgresDecodingError:
            let column = error.columnName
            return StoreError(
                .corrupt,
                "Could not \(operation): column '\(column)' holds a value that is not a valid \(error.targetType) "
                    + "(\(error.code), PostgreSQL type \(error.postgresType)). The row is damaged or was written by other software."
            )
        case let error as ConnectionWaitTimeout:
            return StoreError(
                .unavailable,
                "Could not \(operation): no connection to \(target) was free within \(error.timeout). "
                    + "Check that PostgreSQL is running and reachable at \(host):\(port); if it is, the pool "
                    + "(pool_size \(maximumConnections)) is saturated."
            )
        case is CancellationError:
            return StoreError(.unavailable, "Could not \(operation): the operation was cancelled.")
        default:
            return StoreError(
                .unavailable,
                "Could not \(operation): no connection to \(target) could be used (\(error)). "
                    + "Check that PostgreSQL is running and reachable at \(host):\(port), and accepts the URL's user and password."
            )
        }
    }

    private func storeError(_ error: PSQLError, doing operation: String) -> StoreError {
        let reachable =
            "Check that PostgreSQL is running and reachable at \(host):\(port), and that the URL's host, port and sslmode are right."
        switch error.code {
        case .server:
            return serverError(error, doing: operation)
        case .connectionError:
            let cause = error.underlying.map { " (\($0))" } ?? ""
            return StoreError(.unavailable, "Could not \(operation): no connection to \(target)\(cause). \(reachable)")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return StoreError(
                .unavailable,
                "Could not \(operation): the connection to \(target) was closed. \(reachable)"
            )
        case .poolClosed:
            return StoreError(.unavailable, "Could not \(operation): the store was shut down.")
        case .queryCancelled:
            return StoreError(.unavailable, "Could not \(operation): the query was cancelled.")
        case .sslUnsupported:
            return StoreError(
                .unavailable,
                "Could not \(operation): \(target) does not offer TLS, and the URL says sslmode=require. Enable TLS on the server, or change sslmode."
            )
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return StoreError(
                .unavailable,
                "Could not \(operation): TLS with \(target) failed. Check the server's certificate and the URL's sslmode."
            )
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return StoreError(
                .unavailable,
                "Could not \(operation): \(target) did not accept the authentication (\(error.code)). Check the URL's user and password, and the server's pg_hba.conf."
            )
        default:
            return StoreError(
                .unavailable,
                "Could not \(operation): the exchange with \(target) failed (\(error.code)). \(reachable)"
            )
        }
    }

    private func serverError(_ error: PSQLError, doing operation: String) -> StoreError {
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "no message"
        switch state {
        case "23505":  // unique_violation
            switch error.serverInfo?[.constraintName] {
            case "credentials_pkey": return StoreError(.credentialExists, "This credential is registered already.")
            case "credentials_live_name":
                return StoreError(.nameTaken, "Another live credential of this user has this name.")
            case "users_handle_key": return StoreError(.duplicate, "Another user has this user handle.")
            case "users_name_key": return StoreError.userNameTaken
            case "users_pkey": return StoreError(.duplicate, "A user with this id exists.")
            case "flows_pkey": return StoreError(.duplicate, "A flow with this id exists.")
            case "web_sessions_pkey": return StoreError(.duplicate, "A web session with this id exists.")
            case "web_sessions_secret_hash_key": return StoreError(.duplicate, "A web session with this secret exists.")
            case "workflow_runs_pkey":
                return StoreError(.duplicate, "An identity-verification run with this id exists.")
            case "workflow_runs_flow_key":
                return StoreError(.duplicate, "The flow has an identity-verification run already.")
            case let constraint:
                return StoreError(
                    .duplicate,
                    "Could not \(operation): \(message) (\(constraint ?? "unique constraint"))."
                )
            }
        case "23503":  // foreign_key_violation
            return StoreError(.notFound, "Could not \(operation): a record it refers to does not exist (\(message)).")
        case "40001", "40P01":  // serialization_failure, deadlock_detected
            return StoreError(
                .unavailable,
                "Could not \(operation): it conflicted with concurrent operations (\(message)). Retrying may help."
            )
        case "28P01":  // invalid_password
            return StoreError(
                .unavailable,
                "Could not \(operation): \(target) refused the password. Check the user and password in the URL."
            )
        case "28000":  // invalid_authorization_specification
            return StoreError(
                .unavailable,
                "Could not \(operation): \(target) refused the login (\(message)). Check the URL's user, and the server's pg_hba.conf."
            )
        case "3D000":  // invalid_catalog_name
            return StoreError(
                .unavailable,
                "Could not \(operation): the database does not exist on \(target). Create it (the store creates its tables, not the database), or fix the URL."
            )
        case "3F000":  // invalid_schema_name
            return StoreError(
                .unavailable,
                "Could not \(operation): the schema to create the tables in does not exist (\(message)). Create it, or fix the URL's search_path."
            )
        case "42P01":  // undefined_table
            return StoreError(
                .unavailable,
                "Could not \(operation): a table is missing (\(message)). Was the schema dropped, or the search_path changed?"
            )
        case "42501":  // insufficient_privilege
            return StoreError(
                .unavailable,
                "Could not \(operation): the user lacks a privilege (\(message)). Grant it, or connect as the schema's owner."
            )
        case "53300":  // too_many_connections
            return StoreError(
                .unavailable,
                "Could not \(operation): \(target) has no free connection slot. Lower the URL's pool_size, or raise the server's max_connections."
            )
        case "57P01", "57P02", "57P03":  // admin_shutdown, crash_shutdown, cannot_connect_now
            return StoreError(
                .unavailable,
                "Could not \(operation): \(target) is shutting down or starting up (\(message)). Retrying may help."
            )
        case let state where state.hasPrefix("08"):  // connection_exception
            return StoreError(
                .unavailable,
                "Could not \(operation): the connection to \(target) failed (\(message)). Check that the server is running and reachable."
            )
        case let state where state.hasPrefix("22"):  // data_exception
            return StoreError(.corrupt, "Could not \(operation): PostgreSQL refused a value (\(state): \(message)).")
        default:
            return StoreError(
                .unavailable,
                "Could not \(operation): PostgreSQL reported \(state.isEmpty ? "an error" : state): \(message)."
            )
        }
    }
}
